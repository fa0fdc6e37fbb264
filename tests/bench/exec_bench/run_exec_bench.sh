#!/usr/bin/env bash
# Execution speed and memory against their peers, measured in the same run (Release build):
#   1. elementwise kernels on 16M-element f32 tensors (`shardscope-elementwise-bench`) against
#      NumPy (Debian's python3-numpy) on the same shapes: throughput ratio = NumPy time / ours;
#   2. liveness: peak RSS (`/usr/bin/time -f %M`) of `shardscope-cli run` on 21 chained adds of
#      64 MB tensors, above the same run of a program that only returns its input (inputs,
#      process and result alike), in units of one tensor; NumPy's same chain beside it;
#   3. local collectives, whole process: `shardscope-cli run` of K chained all-reduces (and K
#      all-gathers of 8 MB blocks into 64 MB) over 8 devices, 64 MB per device, minus the same
#      run with none (one all-gather), per collective, against a memcpy of the bytes one collective moves (8 x 64 MB, as defined in
#      core/backends/local/README.md): throughput ratio = memcpy time / collective time.
# Usage: run_exec_bench.sh BUILD_DIR
set -euo pipefail

build=${1:?usage: run_exec_bench.sh BUILD_DIR}
cli=$build/app/cli/shardscope-cli
bench=$build/tests/bench/shardscope-elementwise-bench
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: nproc $(nproc), $(lscpu | sed -n 's/^Model name: *//p'), $(uptime | sed 's/.*\(load average\)/\1/')"

# --- 1. elementwise ----------------------------------------------------------------------
"$bench" --benchmark_filter='BM_(Add|Tanh|Exp|Log|Logistic)F32' --benchmark_format=json \
  >"$work/ours.json" 2>/dev/null
"$py" "$here/numpy_peer.py" elementwise >"$work/numpy.json"
"$py" - "$work/ours.json" "$work/numpy.json" <<'PY'
import json, sys
ours = {b["name"].split("/")[0].removeprefix("BM_").removesuffix("F32").lower(): b
        for b in json.load(open(sys.argv[1]))["benchmarks"]}
peer = json.load(open(sys.argv[2]))
print("\nelementwise, f32[16M]     ShardScope wall/CPU      NumPy wall/CPU     ratio wall/CPU (>= 0.5)")
for op in ["add", "tanh", "exp", "log", "logistic"]:
    if op in ours and op in peer:
        w, c = ours[op]["real_time"], ours[op]["cpu_time"]
        pw, pc = peer[op]["wall"], peer[op]["cpu"]
        print(f"  {op:<22} {w:8.1f} / {c:6.1f} ms   {pw:8.1f} / {pc:6.1f} ms   {pw / w:5.2f} / {pc / c:5.2f}")
PY

# --- 2. liveness -------------------------------------------------------------------------
n=16777216
t="tensor<${n}xf32>"
{
  echo "func.func @main(%a: $t, %b: $t) -> $t {"
  prev=%a
  for i in $(seq 0 20); do echo "  %v$i = stablehlo.add $prev, %b : $t"; prev=%v$i; done
  echo "  return $prev : $t"
  echo "}"
} >"$work/chain.mlir"
printf 'func.func @main(%%a: %s, %%b: %s) -> %s {\n  return %%a : %s\n}\n' "$t" "$t" "$t" "$t" \
  >"$work/noop.mlir"
rss() { # peak RSS in KB of `shardscope-cli run FILE`
  /usr/bin/time -f %M -o "$work/rss" "$cli" run "$1" --inputs zeros --max-tensor-bytes 4000000000 \
    >/dev/null
  cat "$work/rss"
}
base=$(rss "$work/noop.mlir")
chain=$(rss "$work/chain.mlir")
peer=$("$py" "$here/numpy_peer.py" chain)
"$py" - "$base" "$chain" "$peer" <<'PY'
import sys
base, chain = int(sys.argv[1]), int(sys.argv[2])
peer_base, peer_chain = map(int, sys.argv[3].split())
tensor = 64 * 1024  # KB
print("\nliveness: 21 chained adds of f32[16M] (64 MB)   peak RSS   above the no-op run")
print(f"  shardscope-cli run                              {chain/1024:6.0f} MB   {(chain-base)/tensor:4.2f} tensors (<= 3)")
print(f"  NumPy                                           {peer_chain/1024:6.0f} MB   {(peer_chain-peer_base)/tensor:4.2f} tensors")
PY

# --- 3. collectives ----------------------------------------------------------------------
collective_program() { # KIND COUNT
  local kind=$1 count=$2 local_n global_n in_t
  if [[ $kind == all_reduce ]]; then local_n=$n; else local_n=$((n / 8)); fi
  global_n=$((local_n * 8))
  in_t="tensor<${local_n}xf32>"
  echo 'sdy.mesh @mesh = <["x"=8]>'
  echo "func.func @main(%x: tensor<${global_n}xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> (tensor<${global_n}xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) {"
  echo "  %out = sdy.manual_computation(%x) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, [{\"x\"}]>] manual_axes={\"x\"} (%v0: $in_t) {"
  for i in $(seq 1 "$count"); do
    local prev=%v$((i - 1))
    if [[ $kind == all_reduce ]]; then
      echo "    %v$i = \"stablehlo.all_reduce\"($prev) <{channel_handle = #stablehlo.channel_handle<handle = $i, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({"
      echo "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):"
      echo "      %s = stablehlo.add %p, %q : tensor<f32>"
      echo "      stablehlo.return %s : tensor<f32>"
      echo "    }) : ($in_t) -> $in_t"
    else
      # Each all-gather gathers the 8 MB blocks into 64 MB; only the last result is sliced back
      # (the per-element slice kernel would otherwise dominate), so runs differ by gathers only.
      echo "    %g$i = \"stablehlo.all_gather\"(%v0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = $i, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : ($in_t) -> tensor<${n}xf32>"
    fi
  done
  if [[ $kind == all_reduce ]]; then
    echo "    sdy.return %v$count : $in_t"
  else
    echo "    %last = stablehlo.slice %g$count [0:${local_n}] : (tensor<${n}xf32>) -> $in_t"
    echo "    sdy.return %last : $in_t"
  fi
  echo "  } : (tensor<${global_n}xf32>) -> tensor<${global_n}xf32>"
  echo "  return %out : tensor<${global_n}xf32>"
  echo "}"
}
seconds() { # best of 3 wall times of `shardscope-cli run FILE`
  local best=""
  for _ in 1 2 3; do
    /usr/bin/time -f %e -o "$work/time" "$cli" run "$1" --inputs zeros \
      --max-tensor-bytes 4000000000 >/dev/null
    best=$("$py" -c "import sys; a=[float(x) for x in sys.argv[1:] if x]; print(min(a))" $best "$(cat "$work/time")")
  done
  echo "$best"
}
count=8
memcpy=$("$py" "$here/numpy_peer.py" memcpy $((8 * n * 4)))
echo
echo "local collectives, 8 devices, 64 MB per device, whole process ($count chained, minus none)"
for kind in all_reduce all_gather; do
  # The baseline of all-gathers has one (whose result is sliced), the measured run count more.
  base=0
  [[ $kind == all_gather ]] && base=1
  collective_program $kind $base >"$work/$kind-0.mlir"
  collective_program $kind $((base + count)) >"$work/$kind-$count.mlir"
  t0=$(seconds "$work/$kind-0.mlir")
  tk=$(seconds "$work/$kind-$count.mlir")
  "$py" - "$kind" "$t0" "$tk" "$count" "$memcpy" <<'PY'
import sys
kind, t0, tk, k, memcpy = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
if tk - t0 < 0.02 * k:
    # Under load the two runs' noise can exceed what the collectives cost: say so, never print
    # a ratio computed from a difference of noise.
    print(f"  {kind:<12} not measurable in this run: {k} collectives took {tk:.2f} s, none {t0:.2f} s")
else:
    per = (tk - t0) / k
    print(f"  {kind:<12} {per*1e3:7.1f} ms per collective   memcpy of 512 MB {memcpy*1e3:6.1f} ms   throughput ratio {memcpy/per:5.2f} (>= 0.5)")
PY
done
