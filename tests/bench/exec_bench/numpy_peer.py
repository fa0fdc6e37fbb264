"""The NumPy side of run_exec_bench.sh (Debian's python3-numpy).

  numpy_peer.py elementwise   -> JSON {op: {wall, cpu} mean ms} for f32[16M] add, tanh, exp, log, logistic
  numpy_peer.py chain         -> "BASE_KB CHAIN_KB": peak RSS of a process that makes two f32[16M]
                                 inputs and returns one, and of one that adds 21 times
  numpy_peer.py memcpy BYTES  -> best seconds of copying BYTES between two buffers (np.copyto)
"""
import json
import resource
import subprocess
import sys
import time

import numpy as np

N = 16 * 1024 * 1024


def timed(fn, seconds=1.0):
    """Mean wall and CPU milliseconds per call (CPU time is robust when other jobs load the
    machine; wall time is what a user waits)."""
    fn()  # warm up
    runs, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        fn()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and runs >= 3:
            return {"wall": elapsed / runs * 1e3,
                    "cpu": (time.process_time() - cpu) / runs * 1e3}


def elementwise():
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, N).astype(np.float32)
    b = rng.uniform(-1, 1, N).astype(np.float32)
    x = rng.uniform(-4, 4, N).astype(np.float32)
    p = rng.uniform(0.001, 4, N).astype(np.float32)
    out = {
        "add": timed(lambda: np.add(a, b)),
        "tanh": timed(lambda: np.tanh(x)),
        "exp": timed(lambda: np.exp(x)),
        "log": timed(lambda: np.log(p)),
        "logistic": timed(lambda: 1 / (1 + np.exp(-x))),
    }
    print(json.dumps(out))


CHAIN = """
import numpy as np, resource, sys
a = np.zeros({n}, np.float32); b = np.zeros({n}, np.float32)
x = a
for _ in range({adds}):
    x = x + b
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def chain():
    peaks = []
    for adds in (0, 21):
        out = subprocess.run([sys.executable, "-c", CHAIN.format(n=N, adds=adds)],
                             capture_output=True, text=True, check=True)
        peaks.append(out.stdout.strip())
    print(" ".join(peaks))


def memcpy(nbytes):
    src = np.ones(nbytes, np.uint8)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    print(best)


if __name__ == "__main__":
    {"elementwise": elementwise, "chain": chain,
     "memcpy": lambda: memcpy(int(sys.argv[2]))}[sys.argv[1]]()
