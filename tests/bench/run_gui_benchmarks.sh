#!/usr/bin/env bash
# Runs the GUI benchmarks (offscreen) against a (Release) build directory:
#   1. launch to a painted graph for generated 2k-op and 100k-op programs (target < 2 s), the
#      graph of one flat 100k-op function, and the event-loop stalls while the other stages are
#      computed in the background,
#   2. event-loop stalls while stepping a run of the bundled shard_map matmul and of the 2k-op
#      program (target: none over 100 ms).
#
#   tests/bench/run_gui_benchmarks.sh BUILD_DIR
#
# Environment: STEPS (default 200), WORK (default: a temporary directory for the programs).
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
gen=$build/tests/bench/shardscope-gen-module
bench=$build/tests/bench/shardscope-gui-bench
for exe in "$gen" "$bench"; do
  if [[ ! -x $exe ]]; then
    echo "run_gui_benchmarks: $exe is missing; build shardscope-gen-module and" \
      "shardscope-gui-bench first" >&2
    exit 1
  fi
done
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
export QT_QPA_PLATFORM=offscreen
export XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache XDG_RUNTIME_DIR=$work/runtime
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load:$(uptime | sed 's/.*load average://')"
"$gen" --ops 2000 -o "$work/gen_2k.mlir"
"$gen" --ops 100000 -o "$work/gen_100k.mlir"
"$gen" --ops 100000 --ops-per-function 100000 -o "$work/gen_100k_flat.mlir"

for program in gen_2k gen_100k; do
  "$bench" launch "$work/$program.mlir" 2>/dev/null
done
# The flat program's @main is one call: also time its 100k-op function's (collapsed) graph.
"$bench" launch "$work/gen_100k_flat.mlir" chain_0 2>/dev/null
"$bench" stalls "$src/resources/examples/shard_map_matmul.mlir" "${STEPS:-200}" 2>/dev/null
"$bench" stalls "$work/gen_2k.mlir" "${STEPS:-200}" 2>/dev/null
