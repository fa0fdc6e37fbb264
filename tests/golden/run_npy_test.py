#!/usr/bin/env python3
"""`shardscope-cli run` end to end, with NumPy as the independent peer.

NumPy writes the inputs, ShardScope runs the sharded program on its 4-device mesh and writes the
results as .npy, NumPy reads them back and checks them against its own computation. Also: a trace
that parses as Chrome trace-event JSON with one track per device, and failing runs (wrong input
shape, wrong dtype, a deadlocking program) that exit 1 and leave no output files behind.

usage: run_npy_test.py SHARDSCOPE_CLI TESTS_DATA_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("FAIL: numpy is missing (cmake/install-deps.sh installs python3-numpy)")
    sys.exit(1)

cli, data = sys.argv[1], sys.argv[2]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(*args):
    return subprocess.run([cli, "run", *args], capture_output=True, text=True, timeout=120)


with tempfile.TemporaryDirectory() as tmp:
    rng = np.random.default_rng(5)
    lhs = rng.standard_normal((8, 16)).astype(np.float32)
    rhs = rng.standard_normal((16, 4)).astype(np.float32)
    bias = rng.standard_normal((8, 4)).astype(np.float32)
    for name, array in (("lhs", lhs), ("rhs", rhs), ("bias", bias)):
        np.save(os.path.join(tmp, name + ".npy"), array)
    inputs = ",".join(f"{i}={os.path.join(tmp, n)}.npy" for i, n in enumerate(("lhs", "rhs", "bias")))

    out = os.path.join(tmp, "out")
    trace = os.path.join(tmp, "trace.json")
    r = run(os.path.join(data, "session/global_matmul.mlir"), "--inputs", inputs,
            "--check-reference", "--output-dir", out, "--trace", trace)
    check(r.returncode == 0, f"run failed: {r.returncode}\n{r.stdout}{r.stderr}")
    check("4 devices" in r.stdout, "not run on 4 devices:\n" + r.stdout)
    check("match the reference" in r.stdout, "reference check did not pass:\n" + r.stdout)
    result = np.load(os.path.join(out, "result_0.npy"))
    check(result.dtype == np.float32 and result.shape == (8, 4), f"result is {result.dtype}{result.shape}")
    expected = lhs.astype(np.float64) @ rhs.astype(np.float64) + bias
    check(np.allclose(result, expected, rtol=1e-5, atol=1e-5),
          f"result differs from NumPy by {np.abs(result - expected).max()}")

    events = json.load(open(trace))["traceEvents"]
    tracks = {e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    check(tracks == {f"device {d}" for d in range(4)}, f"trace tracks: {sorted(tracks)}")
    spans = [e for e in events if e.get("ph") == "X"]
    check(any(e["cat"] == "collective" and e["args"]["bytes_sent"] > 0 for e in spans),
          "no collective span with bytes in the trace")
    check({e["tid"] for e in spans} == set(range(4)), "not every device has spans")

    # An integer program through every dtype NumPy and ShardScope share would be nice; here the
    # i32 ring shift of the shard_map seed, checked against np.roll.
    x = np.arange(16, dtype=np.int32).reshape(8, 2)
    np.save(os.path.join(tmp, "x.npy"), x)
    out2 = os.path.join(tmp, "out2")
    r = run(os.path.join(data, "session/shard_map_seed.mlir"), "--function", "ring_shift",
            "--inputs", "0=" + os.path.join(tmp, "x.npy"), "--output-dir", out2)
    check(r.returncode == 0, f"ring_shift failed:\n{r.stdout}{r.stderr}")
    if r.returncode == 0:
        shifted = np.load(os.path.join(out2, "result_0.npy"))
        check(np.array_equal(shifted, np.roll(x, 2, axis=0)), f"ring_shift gave\n{shifted}")

    # Bad inputs: a clear error, exit 1, nothing written.
    np.save(os.path.join(tmp, "wrong_shape.npy"), np.zeros((4, 4), np.float32))
    np.save(os.path.join(tmp, "wrong_dtype.npy"), np.zeros((8, 16), np.float64))
    for spec, message in (("0=" + os.path.join(tmp, "wrong_shape.npy"), "holds tensor<4x4xf32>"),
                          ("0=" + os.path.join(tmp, "wrong_dtype.npy"), "holds tensor<8x16xf64>")):
        bad_out = os.path.join(tmp, "bad_out")
        r = run(os.path.join(data, "session/global_matmul.mlir"), "--inputs", spec,
                "--output-dir", bad_out, "--trace", os.path.join(tmp, "bad_trace.json"))
        check(r.returncode == 1, f"{spec}: exit {r.returncode}")
        check(message in r.stderr, f"{spec}: message missing:\n{r.stderr}")
        check(not os.path.exists(bad_out) and not os.path.exists(os.path.join(tmp, "bad_trace.json")),
              f"{spec}: output written on failure")
    dead_out = os.path.join(tmp, "dead")
    r = run(os.path.join(data, "session/deadlock.mlir"), "--output-dir", dead_out)
    check(r.returncode == 1 and "device 1 finished" in r.stderr, f"deadlock:\n{r.stderr}")
    check(not os.path.exists(dead_out), "deadlock: output written")

sys.exit(1 if failures else 0)
