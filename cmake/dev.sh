#!/usr/bin/env bash
# One entry point for the README's commands. Installs what is missing (Debian 12 packages),
# builds, then:
#   cmake/dev.sh gui [FILE]   launches the ShardScope app on FILE (default: a bundled example);
#                             without a display it runs under xvfb-run and saves a screenshot
#   cmake/dev.sh test         builds everything and runs the whole test suite
#   cmake/dev.sh bench        builds in Release and runs the benchmarks
#   cmake/dev.sh asan         builds the CLI and the tests with ASan + UBSan (build/asan) and runs
#                             the unit, golden (hostile inputs included), conformance and MPI tests
#                             under them; leaks inside third-party libraries are suppressed by
#                             cmake/sanitizers/lsan.supp, and any report fails the run
#   cmake/dev.sh fuzz [SECONDS]
#                             builds the libFuzzer targets (clang) and fuzzes each for SECONDS
#                             (default 600) from its committed corpus: the parser, the .npy
#                             reader, serve's protocol, GSPMD sharding strings and the pipeline
#                             (structure-aware mutations through verify, propagation, partitioning
#                             and a bounded run)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${SHARDSCOPE_JOBS:-2}

"$root/cmake/install-deps.sh"

configure_and_build() { # build-dir build-type [targets...]
  local dir=$1 type=$2
  shift 2
  cmake -S "$root" -B "$root/$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" >/dev/null
  if (($#)); then
    cmake --build "$root/$dir" -j"$jobs" --target "$@"
  else
    cmake --build "$root/$dir" -j"$jobs"
  fi
}

case "${1:-}" in
gui)
  file=${2:-$root/resources/examples/mlp_data_parallel.mlir}
  configure_and_build build/dev Debug shardscope
  app=$root/build/dev/app/gui/shardscope
  if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
    exec "$app" "$file"
  fi
  shot=$root/build/shardscope-screenshot.png
  echo "shardscope: no display; running under xvfb-run and saving a screenshot to $shot" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$app" "$file" --screenshot "$shot"
  ;;
test)
  configure_and_build build/dev Debug
  (cd "$root/build/dev" && ctest --output-on-failure -j"$jobs" --timeout 1500)
  # The parser fuzzer runs for a bounded time in its own clang build (libFuzzer + sanitizers).
  CC=clang CXX=clang++ cmake -S "$root" -B "$root/build/fuzz" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DSHARDSCOPE_BUILD_FUZZERS=ON -DSHARDSCOPE_BUILD_GUI=OFF -DSHARDSCOPE_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$root/build/fuzz" -j"$jobs" --target shardscope-parser-fuzzer
  cd "$root/build/fuzz"
  exec ctest --output-on-failure -R '^fuzz\.parser_smoke$' --timeout 300
  ;;
asan)
  # No GUI and no benchmarks: the sanitizers watch the engine, the CLI and the MPI backend.
  cmake -S "$root" -B "$root/build/asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSHARDSCOPE_SANITIZE=ON \
    -DSHARDSCOPE_BUILD_GUI=OFF -DSHARDSCOPE_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$root/build/asan" -j"$jobs"
  # Full stack unwinding on malloc: Open MPI allocates in components it dlopen()s and unloads, so
  # only a full stack reaches the libraries the suppressions name.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:fast_unwind_on_malloc=0
  export LSAN_OPTIONS=suppressions=$root/cmake/sanitizers/lsan.supp:print_suppressions=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # Sanitized runs are several times slower: give the hostile-input bound room.
  export SHARDSCOPE_HOSTILE_TIMEOUT=${SHARDSCOPE_HOSTILE_TIMEOUT:-60}
  cd "$root/build/asan"
  exec ctest --output-on-failure -j"$jobs" --timeout 3000 -L 'unit|golden|mpi' ${SHARDSCOPE_CTEST_ARGS:-}
  ;;
fuzz)
  seconds=${2:-600}
  CC=clang CXX=clang++ cmake -S "$root" -B "$root/build/fuzz" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DSHARDSCOPE_BUILD_FUZZERS=ON -DSHARDSCOPE_BUILD_GUI=OFF -DSHARDSCOPE_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$root/build/fuzz" -j"$jobs" --target shardscope-parser-fuzzer \
    shardscope-npy-fuzzer shardscope-serve-fuzzer shardscope-gspmd-fuzzer \
    shardscope-pipeline-fuzzer
  status=0
  for target in parser npy serve gspmd pipeline; do
    corpus=$root/tests/fuzz/corpus_$target
    [[ $target == parser ]] && corpus=$root/tests/fuzz/corpus
    work=$root/build/fuzz/long_$target
    mkdir -p "$work/corpus" "$work/artifacts"
    echo "== fuzzing $target for $seconds s (new inputs in $work/corpus, crashes in $work/artifacts)"
    "$root/build/fuzz/tests/fuzz/shardscope-$target-fuzzer" "$work/corpus" "$corpus" \
      -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/" || status=1
  done
  exit $status
  ;;
bench)
  configure_and_build build/release Release
  exec "$root/tests/bench/run_benchmarks.sh" "$root/build/release"
  ;;
*)
  echo "usage: $0 gui [FILE] | test | bench | asan | fuzz [SECONDS]" >&2
  exit 2
  ;;
esac
