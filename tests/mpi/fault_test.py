#!/usr/bin/env python3
"""Fault and mismatch tests of `--backend mpi`: every case must end every rank with a clear
message and a non-zero status within a bounded time (no hang, no orphan).

  fault_test.py --cli CLI --mpirun MPIRUN --program FILE --np N CASE

CASE:
  mismatch-program  rank 1 loads another program (MPMD launch): every rank reports
                    "rank 1 loaded a different program than rank 0"
  mismatch-inputs   rank 1 gets other inputs: "rank 1 has different inputs than rank 0"
  crash             the last rank kills itself (SIGKILL) at step 2 (--debug-crash-rank)
  fail              the last rank throws at step 2 (--debug-fail-rank): the others print
                    "rank R failed: ..."
  hang              the last rank stops talking at step 2 but stays alive (--debug-hang-rank):
                    the others time out (--mpi-timeout 3) and end the job
  kill              `serve --backend mpi` with a started run; the test kills one follower
                    process with SIGKILL while rank 0 waits for its client
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BOUND_SECONDS = 30  # documented bound is far lower; this only keeps a broken build from hanging


def fail(message, p=None):
    print("FAIL: " + message)
    if p is not None:
        print("--- stdout\n" + (p.stdout or "") + "--- stderr\n" + (p.stderr or ""))
    sys.exit(1)


def launch(cmd):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=BOUND_SECONDS)
    except subprocess.TimeoutExpired:
        fail(f"no exit within {BOUND_SECONDS} s: {' '.join(cmd)}")
    return p, time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--program", required=True)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("case")
    a = ap.parse_args()
    mpirun = [a.mpirun, "--oversubscribe"]
    run = [a.cli, "run", a.program, "--backend", "mpi", "--inputs", "random:5"]
    last = a.np - 1

    if a.case.startswith("mismatch"):
        with tempfile.TemporaryDirectory() as tmp:
            other = Path(tmp) / "other.mlir"
            other.write_text("// a different program text\n" + Path(a.program).read_text())
            if a.case == "mismatch-program":
                second = [a.cli, "run", str(other), "--backend", "mpi", "--inputs", "random:5"]
                expected = "rank 1 loaded a different program than rank 0"
            else:
                second = run[:-1] + ["random:6"]
                expected = "rank 1 has different inputs than rank 0"
            cmd = mpirun + ["-np", "1", *run, ":", "-np", str(a.np - 1), *second]
            p, seconds = launch(cmd)
        if p.returncode == 0:
            fail("a mismatch must fail", p)
        # Every rank reports it (rank 0 and each follower print the same error).
        if p.stderr.count(expected) < a.np:
            fail(f"expected '{expected}' from all {a.np} ranks", p)
        print(f"ok: {a.case}: every rank reported it, exit {p.returncode} after {seconds:.1f} s")
        return 0

    if a.case == "hang":
        cmd = mpirun + ["-np", str(a.np), *run, "--debug-hang-rank", str(last),
                        "--debug-hang-step", "2", "--mpi-timeout", "3"]
        p, seconds = launch(cmd)
        if p.returncode == 0:
            fail("the job must fail when a rank hangs", p)
        if "timed out after 3" not in p.stderr:
            fail("expected a timeout message", p)
        # The ranks that time out ask the others what they wait for; the hung one cannot answer.
        if f"rank {last} did not answer" not in p.stderr:
            fail(f"expected the timeout to name the stuck rank {last}", p)
        if seconds > 3 + 10:
            fail(f"the job took {seconds:.1f} s to end after a 3 s deadline", p)
        print(f"ok: hang: exit {p.returncode} after {seconds:.1f} s (deadline 3 s)")
        print("    " + "\n    ".join(l for l in p.stderr.splitlines() if "rank" in l)[:1500])
        return 0

    if a.case in ("crash", "fail"):
        flag = "crash" if a.case == "crash" else "fail"
        cmd = mpirun + ["-np", str(a.np), *run, f"--debug-{flag}-rank", str(last),
                        f"--debug-{flag}-step", "2"]
        p, seconds = launch(cmd)
        if p.returncode == 0:
            fail("the job must fail when a rank " + ("dies" if flag == "crash" else "fails"), p)
        if flag == "fail":
            if f"rank {last}: error: unexpected exception: injected failure" not in p.stderr:
                fail("the failing rank must say why", p)
            if f"rank {last} failed: unexpected exception" not in p.stderr and \
                    "terminated by the MPI launcher" not in p.stderr:
                fail("the other ranks must say that a rank failed", p)
        else:
            if "signal 9" not in p.stderr and "terminated by the MPI launcher" not in p.stderr:
                fail("expected a message about the killed rank", p)
        print(f"ok: {a.case}: exit {p.returncode} after {seconds:.1f} s")
        print("    " + "\n    ".join(l for l in p.stderr.splitlines() if "rank" in l)[:1500])
        return 0

    if a.case == "kill":
        cmd = mpirun + ["-np", str(a.np), a.cli, "serve", "--backend", "mpi"]
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

        def ask(request):
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            return json.loads(proc.stdout.readline())

        hello = ask({"id": 1, "cmd": "hello"})
        ask({"id": 2, "cmd": "load", "path": a.program})
        started = ask({"id": 3, "cmd": "start"})
        if not started.get("ok"):
            proc.kill()
            fail("start failed: " + json.dumps(started))
        pids = hello.get("pids", [])
        if len(pids) != a.np:
            proc.kill()
            fail("hello must list every rank's pid: " + json.dumps(hello))
        t0 = time.time()
        os.kill(pids[last], signal.SIGKILL)
        try:
            _, err = proc.communicate(timeout=BOUND_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail(f"mpirun still running {BOUND_SECONDS} s after a rank was killed")
        seconds = time.time() - t0
        if proc.returncode == 0:
            fail("the job must fail when a rank is killed")
        print(f"ok: kill: exit {proc.returncode} {seconds:.1f} s after SIGKILL of rank {last}")
        print("    " + "\n    ".join(l for l in err.splitlines() if "rank" in l)[:1500])
        return 0
    fail("unknown case " + a.case)


if __name__ == "__main__":
    sys.exit(main())
