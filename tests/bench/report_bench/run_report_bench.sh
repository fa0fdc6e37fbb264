#!/usr/bin/env bash
# Times `shardscope-cli report` on a generated 100k-op program (Release build):
#   tests/bench/report_bench/run_report_bench.sh BUILD_DIR
# Two programs from shardscope-gen-module: the default (100 functions of 1000 ops called from
# @main) and one flat function of 100k ops (the collapsing stress case: chains and segments).
# For each: HTML with `--stage as-written`, `--stage propagated`, JSON with `--stage propagated`, and
# the full report (all four stages; each stage is derived from the previous one, on a worker thread
# while the report collects the stages already derived). Best of RUNS (default 3) wall times, with
# the CPU time (user + sys) and peak RSS of that run from GNU time: on a loaded machine the CPU
# time is the steadier figure.
set -euo pipefail
if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
ops=${OPS:-100000}
runs=${RUNS:-3}
gen=$build/tests/bench/shardscope-gen-module
cli=$build/app/cli/shardscope-cli
work=$build/bench-data/report
mkdir -p "$work"
"$gen" --ops "$ops" -o "$work/calls.mlir"
"$gen" --ops "$ops" --ops-per-function "$ops" -o "$work/flat.mlir"
# The allocator matters (see cmake/ShardScopeAllocator.cmake): say which one ran.
echo "$("$cli" version); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

time_best() { # time_best LABEL ARGS...: prints the best wall time, its CPU time and peak RSS
  local label=$1 best="" rss="" cpu=""
  shift
  for ((i = 0; i < runs; ++i)); do
    /usr/bin/time -f "%e %M %U %S" -o "$work/time.txt" "$cli" "$@" >/dev/null
    read -r wall kb user sys <"$work/time.txt"
    if [[ -z $best ]] || (($(echo "$wall < $best" | bc) == 1)); then
      best=$wall
      rss=$kb
      cpu=$(echo "$user + $sys" | bc)
    fi
  done
  printf "  %-44s %7.2f s (cpu %6.2f s) %7d MB\n" "$label" "$best" "$cpu" $((rss / 1024))
}

# calls.mlir shows @main (100 calls); flat.mlir shows its one 100k-op function, @chain_0.
for program in calls flat; do
  fn=main
  [[ $program == flat ]] && fn=chain_0
  echo "$program.mlir ($ops ops, graph of @$fn):"
  args=("$work/$program.mlir" --function "$fn")
  time_best "report --stage as-written (HTML)" report "${args[@]}" -o "$work/$program.aw.html" --stage as-written
  time_best "report --stage propagated (HTML)" report "${args[@]}" -o "$work/$program.p.html" --stage propagated
  time_best "report --stage propagated (JSON)" report "${args[@]}" -o "$work/$program.p.json" --stage propagated
  time_best "report, all four stages (HTML)" report "${args[@]}" -o "$work/$program.html"
done
