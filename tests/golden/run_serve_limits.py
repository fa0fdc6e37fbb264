#!/usr/bin/env python3
"""`serve` under load: `--max-steps` bounds a run, and `cancel` stops a running command.

  run_serve_limits.py CLI DATA_DIR

DATA_DIR is tests/data/bad. Each case fails with a message (exit 1) when the server hangs (every
read has a deadline), answers out of order, or ignores the limit or the cancel.
"""
import json
import os
import select
import subprocess
import sys
import time

failures = []


class Server:
    def __init__(self, cli, *args):
        self.proc = subprocess.Popen([cli, "serve", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""

    def send(self, **request):
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()

    def reply(self, timeout):
        """The next response line, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def ask(self, timeout=30, **request):
        self.send(**request)
        return self.reply(timeout)

    def close(self):
        try:
            self.send(cmd="quit")
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        return self.proc.returncode


def expect(name, condition, detail):
    if not condition:
        failures.append(f"{name}: {json.dumps(detail)[:2000]}")


def main():
    cli, data_dir = sys.argv[1], sys.argv[2]
    endless = os.path.join(data_dir, "limits", "endless_while.mlir")

    # --max-steps: an endless loop fails the run with a located step-limit error, at once.
    s = Server(cli, "--max-steps", "500")
    r = s.ask(id=1, cmd="load", path=endless, stage="as-written")
    expect("max-steps: load", r and r["ok"], r)
    r = s.ask(id=2, cmd="start")
    expect("max-steps: start", r and r["ok"], r)
    started = time.monotonic()
    r = s.ask(id=3, cmd="run_to_end", timeout=20)
    expect("max-steps: the run stops", r is not None and r["id"] == 3, r)
    if r:
        expect("max-steps: the run fails", not r.get("ok") or r.get("stop") == "failed", r)
        messages = "\n".join(r.get("diagnostics", []))
        expect("max-steps: a located step-limit error",
               "step limit" in messages and "endless_while.mlir:" in messages, r)
        expect("max-steps: within the bound", time.monotonic() - started < 20, r)
    expect("max-steps: clean exit", s.close() == 0, "exit code")

    # Bad --max-steps values are refused before anything runs.
    for bad in ("0", "-5", "ten", "99999999999999999999"):
        p = subprocess.run([cli, "serve", "--max-steps", bad], input=b"", capture_output=True,
                           timeout=20)
        expect(f"max-steps {bad!r}: refused", p.returncode == 1 and b"--max-steps" in p.stderr,
               p.stderr.decode(errors="replace"))

    # cancel: a `continue` through an endless loop (10 million steps by default: minutes) stops
    # soon after a `cancel`; the responses come in request order; the run can go on afterwards.
    s = Server(cli)
    r = s.ask(id="a", cmd="cancel")
    expect("cancel while idle", r and r["ok"] and r["cancelled"] is False, r)
    r = s.ask(id=1, cmd="load", path=endless, stage="as-written")
    expect("cancel: load", r and r["ok"], r)
    r = s.ask(id=2, cmd="start")
    expect("cancel: start", r and r["ok"], r)
    s.send(id=3, cmd="continue")
    r = s.reply(timeout=1.0)
    expect("cancel: continue is still running after 1 s", r is None, r)
    sent = time.monotonic()
    s.send(id=4, cmd="cancel")
    r = s.reply(timeout=20)
    expect("cancel: continue answers first, stopped by the cancel",
           r is not None and r["id"] == 3 and r["ok"] and r["stop"] == "cancelled"
           and not r["finished"] and r["steps"] > 1, r)
    expect("cancel: promptly", time.monotonic() - sent < 10, time.monotonic() - sent)
    r = s.reply(timeout=10)
    expect("cancel: then its own response", r is not None and r["id"] == 4 and r["ok"]
           and r["cancelled"] is True, r)
    steps = None
    r = s.ask(id=5, cmd="state")
    expect("cancel: the run stays where it stopped", r and r["ok"] and not r["finished"], r)
    if r:
        steps = r["steps"]
    r = s.ask(id=6, cmd="step")
    expect("cancel: stepping goes on", r and r["ok"] and r["stop"] == "stepped"
           and steps is not None and r["steps"] == steps + 1, r)

    # A cancel sent right behind two run commands stops both: the second after its first step.
    s.send(id=7, cmd="run_to_end")
    s.send(id=8, cmd="continue")
    s.send(id=9, cmd="cancel")
    first, second, third = s.reply(20), s.reply(20), s.reply(20)
    expect("cancel: both queued commands stop",
           first and second and first["id"] == 7 and second["id"] == 8
           and first["stop"] == "cancelled" and second["stop"] == "cancelled", [first, second])
    expect("cancel: then the cancel", third and third["id"] == 9 and third["cancelled"] is True,
           third)
    # A later command is not cancelled by an earlier cancel.
    r = s.ask(id=10, cmd="step_over", timeout=5)
    expect("cancel: an earlier cancel does not stop a later step", r and r["ok"]
           and r["stop"] in ("stepped", "breakpoint"), r)
    expect("cancel: clean exit", s.close() == 0, "exit code")

    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        return 1
    print("serve limits: all cases pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
