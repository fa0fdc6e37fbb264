#!/usr/bin/env bash
# Runs the ShardScope benchmarks against a (Release) build directory:
#   1. generates a 100k-op StableHLO + Shardy program in two spellings (pretty for ShardScope,
#      generic for Debian's mlir-opt-14),
#   2. times `shardscope-cli opt` and `mlir-opt-14 --allow-unregistered-dialect` on them (best of
#      5 alternating runs: wall time, user + system CPU time; max RSS from GNU time) and prints
#      both with the ours/mlir-opt ratios,
#   3. runs the in-process Google Benchmark (parse / verify / print at 1k, 10k, 100k ops).
#
#   tests/bench/run_benchmarks.sh BUILD_DIR
#
# Environment: OPS (default 100000), RUNS (default 5), MLIR_OPT (default mlir-opt-14),
# DOT_FORM (pretty|generic, default pretty: how the pretty file spells dot_general),
# BENCH_ARGS (extra arguments for the Google Benchmark binary, e.g. --benchmark_filter=Parse).
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
ops=${OPS:-100000}
runs=${RUNS:-5}
mlir_opt=${MLIR_OPT:-mlir-opt-14}
dot_form=${DOT_FORM:-pretty}

gen=$build/tests/bench/shardscope-gen-module
cli=$build/app/cli/shardscope-cli
bench=$build/tests/bench/shardscope-parse-bench
for exe in "$gen" "$cli" "$bench" "$build/tests/bench/shardscope-propagate-bench" \
  "$build/tests/bench/shardscope-dot-bench" "$build/tests/bench/shardscope-collectives-bench"; do
  if [[ ! -x $exe ]]; then
    echo "run_benchmarks: $exe is missing; build the shardscope-cli, shardscope-gen-module and" \
      "shardscope-parse-bench targets first" >&2
    exit 1
  fi
done
gnu_time=/usr/bin/time
if ! "$gnu_time" -f %M true 2>/dev/null; then
  echo "run_benchmarks: GNU time (/usr/bin/time, Debian package 'time') is needed for max RSS" >&2
  exit 1
fi
have_mlir_opt=1
if ! command -v "$mlir_opt" >/dev/null; then
  echo "run_benchmarks: $mlir_opt not found (Debian package mlir-14-tools); timing ShardScope only" >&2
  have_mlir_opt=0
fi

work=$build/bench-data
mkdir -p "$work"
pretty=$work/big.mlir
generic=$work/big_generic.mlir
echo "Generating $ops-op programs in $work ..."
"$gen" --ops "$ops" --form pretty --dot-form "$dot_form" -o "$pretty"
"$gen" --ops "$ops" --form mlir14-generic -o "$generic"

# run_once NAME CMD...: runs CMD once; sets wall_ns, cpu_s (user + system) and rss_kb. Fails when
# CMD fails.
run_once() {
  local name=$1
  shift
  local start end
  start=$(date +%s%N)
  if ! "$gnu_time" -f '%U %S %M' -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt"; then
    echo "run_benchmarks: $name failed:" >&2
    head -20 "$work/stderr.txt" >&2
    exit 1
  fi
  end=$(date +%s%N)
  wall_ns=$((end - start))
  read -r user sys rss_kb < <(tail -1 "$work/time.txt")
  cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

# Runs of the two tools alternate, so that load from other processes hits both alike. Each keeps
# its best wall time, best CPU time and largest max RSS.
declare -A best_wall best_cpu max_rss
record() { # key
  local key=$1
  if [[ -z ${best_wall[$key]:-} ]] || ((wall_ns < best_wall[$key])); then best_wall[$key]=$wall_ns; fi
  if [[ -z ${best_cpu[$key]:-} ]] || awk -v a="$cpu_s" -v b="${best_cpu[$key]}" 'BEGIN { exit !(a < b) }'; then
    best_cpu[$key]=$cpu_s
  fi
  if [[ -z ${max_rss[$key]:-} ]] || ((rss_kb > max_rss[$key])); then max_rss[$key]=$rss_kb; fi
}

size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
seconds() { awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'; }
megabytes() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "Timing (best of $runs runs, alternating the two tools) ..."
for ((i = 0; i < runs; ++i)); do
  run_once "shardscope-cli opt" "$cli" opt "$pretty" -o /dev/null
  record ours
  if ((have_mlir_opt)); then
    run_once "$mlir_opt" "$mlir_opt" --allow-unregistered-dialect "$generic" -o /dev/null
    record theirs
  fi
done

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo
echo "Machine: $(nproc) cores, ${cpu:-unknown CPU}, $(uname -sr)"
echo "Input:   $ops StableHLO ops; $(basename "$pretty") $(size_mb "$pretty") MB (pretty)," \
  "$(basename "$generic") $(size_mb "$generic") MB (generic, for mlir-opt)"
echo
printf '%-58s %10s %10s %10s\n' "command" "wall (s)" "CPU (s)" "RSS (MB)"
printf '%-58s %10s %10s %10s\n' "shardscope-cli opt big.mlir -o /dev/null" \
  "$(seconds "${best_wall[ours]}")" "${best_cpu[ours]}" "$(megabytes "${max_rss[ours]}")"
if ((have_mlir_opt)); then
  printf '%-58s %10s %10s %10s\n' "$mlir_opt --allow-unregistered-dialect big_generic.mlir" \
    "$(seconds "${best_wall[theirs]}")" "${best_cpu[theirs]}" "$(megabytes "${max_rss[theirs]}")"
  printf '%-58s %10s %10s %10s\n' "ratio ours / mlir-opt (lower is better)" \
    "$(ratio "${best_wall[ours]}" "${best_wall[theirs]}")" \
    "$(ratio "${best_cpu[ours]}" "${best_cpu[theirs]}")" \
    "$(ratio "${max_rss[ours]}" "${max_rss[theirs]}")"
fi
echo "(wall and CPU: best run; RSS: largest max RSS of the runs, from GNU time; load average" \
  "$(cut -d' ' -f1-3 /proc/loadavg))"
echo

echo "In-process benchmarks (shardscope-parse-bench) ..."
# shellcheck disable=SC2086 # BENCH_ARGS is a list of arguments
"$bench" ${BENCH_ARGS:-}

echo
echo "Propagation of a transformer-like program (shardscope-propagate-bench) ..."
# shellcheck disable=SC2086
"$build/tests/bench/shardscope-propagate-bench" ${PROPAGATE_BENCH_ARGS:-}

echo
echo "The interpreter's dot_general and convolution against raw OpenBLAS in the same run" \
  "(shardscope-dot-bench) ..."
# shellcheck disable=SC2086
"$build/tests/bench/shardscope-dot-bench" ${DOT_BENCH_ARGS:-}

echo
echo "The local backend's collectives against memcpy of the same bytes" \
  "(shardscope-collectives-bench) ..."
# shellcheck disable=SC2086
"$build/tests/bench/shardscope-collectives-bench" ${COLLECTIVES_BENCH_ARGS:-}
