#!/usr/bin/env python3
"""Drives `shardscope-cli serve` through its JSON-lines protocol (SERVE_PROTOCOL.md) and checks
every response: handshake, errors as responses, load, inputs, start, stepping, breakpoints,
fetching values (per device and assembled), results, trace, quit.

  serve_protocol_test.py --cli CLI --program FILE [--mpirun MPIRUN --np N]

With --mpirun the server runs as `mpirun -np N CLI serve --backend mpi` and the results are
compared with those of a `--backend local` server on the same program (bit for bit: the JSON
numbers print the doubles exactly).
"""
import argparse
import json
import subprocess
import sys


class Server:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.next_id = 0

    def raw(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            raise SystemExit("FAIL: the server closed its output; stderr:\n" +
                             self.proc.stderr.read())
        return json.loads(reply)

    def ask(self, cmd, **fields):
        self.next_id += 1
        request = {"id": self.next_id, "cmd": cmd, **fields}
        response = self.raw(json.dumps(request))
        if response.get("id") != self.next_id:
            raise SystemExit(f"FAIL: response id {response.get('id')} for request {self.next_id}")
        return response


def check(condition, message, response=None):
    if not condition:
        raise SystemExit("FAIL: " + message + ("\n" + json.dumps(response, indent=1)[:3000]
                                               if response is not None else ""))


def session(cmd, program, expect_ranks):
    s = Server(cmd)
    hello = s.ask("hello")
    check(hello["ok"] and hello["protocol"] == "shardscope-serve" and hello["version"] == 2,
          "hello", hello)
    check(hello["ranks"] == expect_ranks, f"expected {expect_ranks} ranks", hello)

    # Errors are responses, never crashes.
    bad = s.raw("{not json")
    check(not bad["ok"] and bad["error"], "malformed JSON must give an error response", bad)
    r = s.ask("frobnicate")
    check(not r["ok"] and "unknown command" in r["error"], "unknown command", r)
    r = s.ask("step")
    check(not r["ok"], "step before load must fail", r)
    r = s.ask("load", path="/nonexistent/file.mlir")
    check(not r["ok"] and r["diagnostics"], "loading a missing file must fail with a message", r)

    r = s.ask("load", path=program, check_reference=True, trace=True)
    check(r["ok"] and r["function"] == "main" and r["devices"] == 4, "load", r)
    r = s.ask("set_inputs", spec="random:3")
    check(r["ok"] and len(r["arguments"]) == 3, "set_inputs", r)
    r = s.ask("set_inputs", spec="bogus")
    check(not r["ok"], "a bad input spec must fail", r)
    r = s.ask("fetch", value="%0")
    check(not r["ok"], "fetch before start must fail", r)

    r = s.ask("start")
    check(r["ok"] and len(r["devices"]) == 4 and not r["finished"], "start", r)
    ranks = [d["rank"] for d in r["device_ranks"]]
    check(ranks == ([0, 0, 1, 1] if expect_ranks == 2 else [0, 0, 0, 0]), "device->rank map", r)
    first_loc = r["devices"][0]["loc"]
    check(all(d["loc"] == first_loc for d in r["devices"]), "lockstep: same op everywhere", r)

    r = s.ask("step")
    check(r["ok"] and r["stop"] == "stepped" and r["steps"] == 1, "step", r)
    executed_loc = first_loc
    second_loc = r["devices"][0]["loc"]

    # The op executed by the first step, per device and assembled (global).
    r = s.ask("fetch", loc=executed_loc, device=3, max_elements=4)
    check(r["ok"] and len(r["elements"]) <= 4, "fetch on device 3", r)
    device3 = r
    r = s.ask("fetch", loc=executed_loc, device="global", max_elements=1000)
    check(r["ok"] and r["total_elements"] == len(r["elements"]), "fetch global", r)
    r = s.ask("fetch", loc=executed_loc, device=3, max_elements=1)
    check(r["ok"] and r["truncated"] in (True, False) and len(r["elements"]) == 1,
          "max_elements", r)
    r = s.ask("fetch", value="%nonexistent")
    check(not r["ok"], "fetching an unknown value must fail", r)
    # Values go by their source names in every stage: the argument written %lhs, not %arg0.
    r = s.ask("fetch", value="%lhs", device=0)
    check(r["ok"] and r["type"] == "tensor<4x8xf32>", "fetch an argument by its source name", r)

    # A breakpoint on an op further on: continue stops there.
    r = s.ask("set_breakpoint", loc="999:1")
    check(not r["ok"], "a breakpoint where there is no op must fail", r)
    r = s.ask("set_breakpoint", loc=second_loc)
    check(r["ok"] and r["ops"], "set_breakpoint", r)
    r = s.ask("continue")
    # The second op is the next one already: continue executes it, so break on a later op.
    r2 = s.ask("clear_breakpoint", loc=second_loc)
    check(r2["ok"], "clear_breakpoint", r2)
    r = s.ask("run_to_end")
    check(r["ok"] and r["finished"] and r["stop"] == "finished", "run_to_end", r)
    check(r["divergences"] == [], "no divergences from the reference", r)
    r = s.ask("results", max_elements=1000)
    check(r["ok"] and len(r["results"]) == 1, "results", r)
    results = r["results"]
    r = s.ask("trace")
    check(r["ok"] and r["trace"]["traceEvents"], "trace", r)

    # Loading again ends the run (on every rank); then step by step to the end, recording where
    # every device stands after each step: the MPI server must stand exactly where the local
    # one does.
    r = s.ask("load", path=program, check_reference=True)
    check(r["ok"], "load again", r)
    r = s.ask("start")
    check(r["ok"], "start again", r)
    start_loc = r["devices"][0]["loc"]
    positions = []
    for _ in range(100):
        r = s.ask("step")
        check(r["ok"], "step", r)
        positions.append([(d["op"], d.get("loc"), d.get("depth")) for d in r["devices"]])
        if r["finished"] or r["failed"]:
            break
    check(r["finished"] and r["stop"] == "finished", "stepping reaches the end", r)

    # The timeline: step k executed the op device 0 stood at before it.
    r = s.ask("timeline")
    check(r["ok"] and r["total"] == len(positions) and len(r["steps"]) == len(positions),
          "timeline lists every step", r)
    before = [start_loc] + [p[0][1] for p in positions[:-1]]
    check([step["loc"] for step in r["steps"]] == before,
          "each step executed the op device 0 stood at before it", r)
    check(all(step["depth"] >= 1 and not step["diverged"] for step in r["steps"]),
          "depths, no divergences", r)
    for bad in [-1, 1.5, "2", 1e30]:
        r2 = s.ask("timeline", **{"from": bad})
        check(not r2["ok"] and "step number" in r2["error"], f"timeline from {bad!r} must fail", r2)
    tail = s.ask("timeline", **{"from": 2})
    check(tail["ok"] and tail["steps"] == r["steps"][2:], "timeline from a step", tail)

    # Jumping: a new run taken to step 2 stands where stepping stood after two steps.
    r = s.ask("load", path=program, check_reference=True)
    r = s.ask("start")
    r = s.ask("run_to_step")
    check(not r["ok"] and "step" in r["error"], "run_to_step without a step must fail", r)
    r = s.ask("run_to_step", step=2)
    check(r["ok"] and r["stop"] == "stepped" and r["steps"] == 2 and
          [(d["op"], d.get("loc"), d.get("depth")) for d in r["devices"]] == positions[1],
          "run_to_step stands where two steps stood", r)
    r = s.ask("run_to_step", step=1)
    check(r["ok"] and r["steps"] == 2, "a step already passed is not reached again", r)
    r = s.ask("run_to_step", step=10**6)
    check(r["ok"] and r["stop"] == "finished" and r["steps"] == len(positions),
          "run_to_step past the end finishes", r)

    # A breakpoint where device 0 stood after two steps: continue from the start stops there.
    target = positions[1][0][1]
    check(len(positions) > 2 and target, "the program has more than two steps", positions)
    r = s.ask("load", path=program)
    r = s.ask("set_breakpoint", loc=target)
    check(r["ok"], "set_breakpoint before start", r)
    r = s.ask("start")
    r = s.ask("continue")
    check(r["ok"] and r["stop"] == "breakpoint" and r["steps"] == 2 and
          r["devices"][0]["loc"] == target, "continue stops at the breakpoint", r)
    r = s.ask("continue")
    check(r["ok"] and r["stop"] == "finished", "continue runs to the end", r)
    r = s.ask("quit")
    check(r["ok"], "quit", r)
    s.proc.stdin.close()
    code = s.proc.wait(timeout=30)
    err = s.proc.stderr.read()
    check(code == 0, f"the server exited with {code}: {err}")
    return results, device3, positions


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--mpirun")
    ap.add_argument("--np", type=int, default=2)
    a = ap.parse_args()
    local, local_dev3, local_positions = session([a.cli, "serve", "--backend", "local"], a.program, 1)
    print("ok: serve --backend local")
    if a.mpirun:
        mpi, mpi_dev3, mpi_positions = session([a.mpirun, "--oversubscribe", "-np", str(a.np), a.cli, "serve",
                                 "--backend", "mpi"], a.program, a.np)
        check(mpi == local, "mpi results differ from local results", {"local": local, "mpi": mpi})
        check(mpi_dev3["elements"] == local_dev3["elements"], "device 3 values differ",
              {"local": local_dev3, "mpi": mpi_dev3})
        check(mpi_positions == local_positions, "stepping differs",
              {"local": local_positions, "mpi": mpi_positions})
        print(f"ok: serve --backend mpi (np {a.np}) agrees with local")
    return 0


if __name__ == "__main__":
    sys.exit(main())
