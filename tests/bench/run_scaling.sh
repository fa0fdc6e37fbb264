#!/usr/bin/env bash
# How ShardScope's stages scale with program size: for each size of a series (default 10k, 100k
# and 300k StableHLO ops; add 1000000 through SIZES when there is time), generates one flat
# function whose parameters are used in every layer (`shardscope-gen-module --shared-parameters
# --ops-per-function N`: each of %arg1 and %arg2 has about N/4 uses), then times, alternating the
# commands within each run and keeping the best of RUNS:
#   parse+print  shardscope-cli opt F -o /dev/null            (the anchor of every ratio)
#   mlir-opt     mlir-opt-14 --allow-unregistered-dialect G  (the same program, generic form)
#   propagate    shardscope-cli opt F -sdy-propagation-pipeline -o /dev/null
#   partition    shardscope-cli partition F                  (reshards, collectives, per-device)
#   report       shardscope-cli report F -o r.html --function chain_0  (all four stages)
# and prints CPU time (user + system) per op, the ratio of each command to parse+print of the
# same program in wall and in CPU time (on a loaded machine the CPU ratio is the steadier), peak
# RSS per op (GNU time), and the CPU time per op at each size against the smallest size at or
# above 100k ops (linearity: 1.00 means the same cost per op).
#
#   tests/bench/run_scaling.sh BUILD_DIR
#
# Environment: SIZES (default "10000 100000 300000"), RUNS (default 3), MLIR_OPT (default
# mlir-opt-14), STAGES (default "parse+print mlir-opt propagate partition report"), TIMEOUT
# (seconds per command, default 600).
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
sizes=${SIZES:-10000 100000 300000}
runs=${RUNS:-3}
mlir_opt=${MLIR_OPT:-mlir-opt-14}
stages=${STAGES:-parse+print mlir-opt propagate partition report}
limit=${TIMEOUT:-600}
gen=$build/tests/bench/shardscope-gen-module
cli=$build/app/cli/shardscope-cli
for exe in "$gen" "$cli"; do
  if [[ ! -x $exe ]]; then
    echo "run_scaling: $exe is missing; build shardscope-cli and shardscope-gen-module" >&2
    exit 1
  fi
done
if ! /usr/bin/time -f %M true 2>/dev/null; then
  echo "run_scaling: GNU time (/usr/bin/time) is needed for peak RSS" >&2
  exit 1
fi
if ! command -v "$mlir_opt" >/dev/null; then
  echo "run_scaling: $mlir_opt not found; skipping it" >&2
  stages=${stages//mlir-opt/}
fi
work=$build/bench-scaling
mkdir -p "$work"

# command_for STAGE PRETTY GENERIC: the command line of one stage.
command_for() {
  case $1 in
  parse+print) echo "$cli opt $2 -o /dev/null" ;;
  mlir-opt) echo "$mlir_opt --allow-unregistered-dialect $3 -o /dev/null" ;;
  propagate) echo "$cli opt $2 -sdy-propagation-pipeline -o /dev/null" ;;
  partition) echo "$cli partition $2" ;;
  report) echo "$cli report $2 -o $work/r.html --function chain_0" ;;
  *) echo "run_scaling: unknown stage $1" >&2; exit 2 ;;
  esac
}

declare -A wall cpu rss
echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(uname -sr)"
echo "Load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $sizes; do
  pretty=$work/flat_$n.mlir
  generic=$work/flat_${n}_generic.mlir
  "$gen" --ops "$n" --ops-per-function "$n" --shared-parameters -o "$pretty"
  "$gen" --ops "$n" --ops-per-function "$n" --shared-parameters --form mlir14-generic -o "$generic"
  for ((r = 0; r < runs; ++r)); do
    for stage in $stages; do
      read -r -a cmd <<<"$(command_for "$stage" "$pretty" "$generic")"
      start=$(date +%s%N)
      if ! timeout "$limit" /usr/bin/time -f '%U %S %M' -o "$work/time.txt" "${cmd[@]}" \
        >/dev/null 2>"$work/stderr.txt"; then
        echo "run_scaling: $stage at $n ops failed or took over ${limit}s:" >&2
        head -5 "$work/stderr.txt" >&2
        continue
      fi
      end=$(date +%s%N)
      read -r user sys kb < <(tail -1 "$work/time.txt")
      key="$stage@$n"
      w=$((end - start))
      c=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
      if [[ -z ${wall[$key]:-} ]] || ((w < wall[$key])); then wall[$key]=$w; fi
      if [[ -z ${cpu[$key]:-} ]] || awk -v a="$c" -v b="${cpu[$key]}" 'BEGIN { exit !(a < b) }'; then
        cpu[$key]=$c
      fi
      if [[ -z ${rss[$key]:-} ]] || ((kb > rss[$key])); then rss[$key]=$kb; fi
    done
  done
done
echo "Load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# The reference size for linearity: the smallest at or above 100k ops, else the largest.
ref=""
for n in $sizes; do
  if [[ -z $ref ]] && ((n >= 100000)); then ref=$n; fi
done
[[ -n $ref ]] || ref=$(echo "$sizes" | tr ' ' '\n' | tail -1)
printf '%-12s %9s %9s %9s %9s %9s %9s %11s %9s\n' stage ops "wall s" "CPU s" "CPU us/op" \
  "wall x pp" "CPU x pp" "vs ${ref}/op" "RSS B/op"
for stage in $stages; do
  for n in $sizes; do
    key="$stage@$n"
    [[ -n ${wall[$key]:-} ]] || continue
    anchor=${wall[parse+print@$n]:-0}
    canchor=${cpu[parse+print@$n]:-0}
    refkey="$stage@$ref"
    awk -v w="${wall[$key]}" -v c="${cpu[$key]}" -v n="$n" -v a="$anchor" -v ca="$canchor" \
      -v kb="${rss[$key]}" -v rc="${cpu[$refkey]:-0}" -v rn="$ref" -v s="$stage" 'BEGIN {
        per = c * 1e6 / n
        printf "%-12s %9d %9.3f %9.2f %9.2f %9s %9s %11s %9.0f\n", s, n, w / 1e9, c, per,
          (a > 0 ? sprintf("%.2f", w / a) : "-"), (ca > 0 ? sprintf("%.2f", c / ca) : "-"),
          (rc > 0 ? sprintf("%.2f", per / (rc * 1e6 / rn)) : "-"), kb * 1024 / n }'
  done
done
echo "(wall and CPU: best of $runs runs; RSS: largest peak RSS of the runs, per StableHLO op)"
