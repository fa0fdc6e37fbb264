#!/usr/bin/env python3
"""Hostile inputs against the command line: every one must end in a clear error and exit status 1,
within a time bound, without a sanitizer report — never a crash, a hang or a silent success.

usage: run_hostile.py CLI BAD_DIR

Program files: every `*.mlir` under BAD_DIR (except `verifier/`, which has its own runner). A file
says how it is run in header lines:
    // RUN: <command and arguments>   `%s` is the file; several RUN lines run several commands
    // ERROR: <regex>                 a located error line must match it (`file:L:C: error: ...`)
    // UNLOCATED: <why>               the errors name an option, not a place in the file
A file without RUN lines goes through every command that reads a program. Errors must be located
(`<file>:<line>:<col>: error:`) unless the file says UNLOCATED.

Besides the files, the cases below build their hostile input at run time: devices and FIFOs as
the program, a full disk as standard output, an endless standard input, `run --output-dir` sets,
and abuse of `serve`'s protocol.

SHARDSCOPE_HOSTILE_TIMEOUT (seconds, default 10) bounds each run; sanitizer builds raise it.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

TIMEOUT = float(os.environ.get("SHARDSCOPE_HOSTILE_TIMEOUT", "10"))
SANITIZER = re.compile(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:|"
                       r"SUMMARY: UndefinedBehaviorSanitizer")
# The commands a program file goes through when it names none.
EVERY_COMMAND = [
    "check %s", "opt %s", "inspect %s --value arg0", "explain %s --value arg0", "types %s",
    "partition %s", "run %s", "interpret %s", "grad %s --wrt 0", "transpose %s --linear-in 0",
    "report %s -o - --format json",
]

failures = []
count = 0


def fail(name, message, stderr=""):
    failures.append(name)
    print(f"FAIL {name}: {message}")
    if stderr:
        print("  --- stderr (first 2000 bytes)\n" + stderr[:2000])


def run(cli, args, cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=None, input=None):
    """Runs the CLI; returns (exit code or None on timeout, stdout, stderr)."""
    try:
        proc = subprocess.run([cli] + args, cwd=cwd, stdin=stdin if input is None else None,
                              stdout=stdout, stderr=subprocess.PIPE, timeout=TIMEOUT, env=env,
                              input=input)
    except subprocess.TimeoutExpired:
        return None, "", ""
    out = proc.stdout.decode("utf-8", "replace") if isinstance(proc.stdout, bytes) else ""
    return proc.returncode, out, proc.stderr.decode("utf-8", "replace")


def check_failure(name, rc, stderr, located=None, pattern=None):
    """Exit 1, no sanitizer report, and (optionally) a located error / a matching error line."""
    global count
    count += 1
    if rc is None:
        return fail(name, f"did not finish within {TIMEOUT:g} s")
    if SANITIZER.search(stderr):
        return fail(name, "sanitizer report", stderr)
    if rc != 1:
        return fail(name, f"exit status {rc}, expected 1", stderr)
    lines = stderr.splitlines()
    if located is not None:
        prefix = re.compile(re.escape(located) + r":\d+:\d+: error: ")
        lines = [line for line in lines if prefix.match(line)]
        if not lines:
            return fail(name, f"no located error '{located}:LINE:COL: error: ...'", stderr)
    else:
        lines = [line for line in lines if "error" in line]
        if not lines:
            return fail(name, "no error message", stderr)
    if pattern and not any(re.search(pattern, line) for line in lines):
        fail(name, f"no error line matches /{pattern}/", stderr)


def program_cases(cli, bad_dir):
    data_dir = os.path.dirname(os.path.abspath(bad_dir))
    for root, dirs, files in os.walk(bad_dir):
        dirs[:] = sorted(d for d in dirs if d != "verifier")
        for file in sorted(files):
            if not file.endswith(".mlir"):
                continue
            path = os.path.join(root, file)
            rel = os.path.relpath(path, data_dir)
            with open(path, "rb") as f:
                head = f.read(4096).decode("utf-8", "replace").splitlines()
            runs = [l.split(":", 1)[1].strip() for l in head if l.startswith("// RUN:")]
            errors = [l.split(":", 1)[1].strip() for l in head if l.startswith("// ERROR:")]
            located = None if any(l.startswith("// UNLOCATED:") for l in head) else rel
            for command in runs or EVERY_COMMAND:
                args = [rel if a == "%s" else a for a in shlex.split(command)]
                rc, _, stderr = run(cli, args, data_dir)
                if file == "empty.mlir" and command.startswith("interpret"):
                    # StableHLO's reference interpreter runs a module without functions to no
                    # results and succeeds (stablehlo/reference/Api.cpp); `interpret` does too.
                    global count
                    count += 1
                    if rc != 0 or SANITIZER.search(stderr):
                        fail(f"{rel}: {command}", f"exit status {rc}, expected 0", stderr)
                    continue
                check_failure(f"{rel}: {command}", rc, stderr, located,
                              errors[0] if errors else None)


def device_and_fifo_cases(cli):
    """A device or FIFO given as the program is refused at once, never read until it ends."""
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "program.fifo")
        os.mkfifo(fifo)  # no writer: opening it for reading would block forever
        for path in ["/dev/zero", "/dev/full", fifo]:
            for command in EVERY_COMMAND:
                args = [path if a == "%s" else a for a in shlex.split(command)]
                rc, _, stderr = run(cli, args, tmp)
                check_failure(f"{path} as FILE: {command}", rc, stderr, None,
                              r"not a regular file")
        # An endless standard input is cut at the input limit.
        env = dict(os.environ, SHARDSCOPE_MAX_INPUT_BYTES="1000000")
        with open("/dev/zero", "rb") as zero:
            rc, _, stderr = run(cli, ["opt", "-"], tmp, stdin=zero, env=env)
        check_failure("opt - < /dev/zero", rc, stderr, None, r"larger than 1000000 bytes")


def full_stdout_cases(cli, data_dir):
    """A write error on standard output fails the command."""
    program = "simple.mlir"
    for command in [f"report {program} -o - --format json", f"check {program}",
                    f"opt {program}", f"run {program}", f"partition {program}",
                    "version"]:
        with open("/dev/full", "wb") as full:
            rc, _, stderr = run(cli, shlex.split(command), data_dir, stdout=full)
        check_failure(f"{command} > /dev/full", rc, stderr, None, r"standard output")
        # Said once, however many writes failed (a streamed program is written in pieces).
        if stderr.count("could not write standard output") > 1:
            fail(f"{command} > /dev/full", "the write error is reported more than once", stderr)


def output_dir_cases(cli, data_dir):
    """`run --output-dir` writes its results as a set: no stale result_N.npy, no temporaries."""
    global count
    program = os.path.join(data_dir, "simple.mlir")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        for stale in ["result_0.npy", "result_7.npy"]:
            with open(os.path.join(out, stale), "w") as f:
                f.write("stale")
        rc, _, stderr = run(cli, ["run", program, "--output-dir", out], tmp)
        count += 1
        names = sorted(os.listdir(out)) if os.path.isdir(out) else []
        if rc != 0:
            fail("run --output-dir over earlier results", f"exit status {rc}", stderr)
        elif "result_7.npy" in names or not names or any("tmp" in n for n in names):
            fail("run --output-dir over earlier results", f"directory holds {names}")
        elif open(os.path.join(out, "result_0.npy"), "rb").read(6) != b"\x93NUMPY":
            fail("run --output-dir over earlier results", "result_0.npy was not replaced")
        leftovers = [n for n in os.listdir(tmp) if "tmp-shardscope" in n]
        if leftovers:
            fail("run --output-dir over earlier results", f"temporaries left: {leftovers}")
        # A directory holding other files keeps them; stale results still go.
        shared = os.path.join(tmp, "shared")
        os.mkdir(shared)
        for name in ["notes.txt", "result_3.npy"]:
            with open(os.path.join(shared, name), "w") as f:
                f.write("x")
        rc, _, stderr = run(cli, ["run", program, "--output-dir", shared], tmp)
        count += 1
        names = sorted(os.listdir(shared))
        if rc != 0 or "notes.txt" not in names or "result_3.npy" in names or \
                any("tmp" in n for n in names):
            fail("run --output-dir beside other files", f"exit {rc}, directory holds {names}",
                 stderr)
        # A file where the directory should be: an error, nothing written.
        blocker = os.path.join(tmp, "blocker")
        open(blocker, "w").close()
        rc, _, stderr = run(cli, ["run", program, "--output-dir", blocker], tmp)
        check_failure("run --output-dir onto a file", rc, stderr, None, r"not a directory")


def serve(cli, data_dir, lines, extra=()):
    """Sends `lines` to `serve`; returns (exit code, responses, stderr)."""
    payload = "".join(l + "\n" for l in lines).encode()
    rc, out, stderr = run(cli, ["serve", *extra], data_dir, input=payload)
    responses = []
    for line in out.splitlines():
        try:
            responses.append(json.loads(line))
        except ValueError:
            responses.append({"unparsable": line[:200]})
    return rc, responses, stderr


def serve_case(name, rc, responses, stderr, expected, check):
    """`check(responses)` returns an error text or None."""
    global count
    count += 1
    if rc is None:
        return fail(name, f"did not finish within {TIMEOUT:g} s")
    if SANITIZER.search(stderr):
        return fail(name, "sanitizer report", stderr)
    if rc != 0 or len(responses) != expected:
        return fail(name, f"exit {rc}, {len(responses)} responses (expected {expected})", stderr)
    problem = check(responses)
    if problem:
        fail(name, problem + "\n  responses: " + json.dumps(responses)[:2000], stderr)


def error_matches(response, pattern):
    return response.get("ok") is False and re.search(pattern, response.get("error", ""))


def serve_cases(cli, data_dir):
    good = json.dumps({"id": 1, "cmd": "load", "path": "simple.mlir"})
    bad = json.dumps({"id": 2, "cmd": "load", "path": "bad/wrong_rank.mlir"})
    located = r"^bad/wrong_rank\.mlir:\d+:\d+: error: "

    def bad_load_located(responses):
        r = responses[-1]
        if r.get("ok") is not False:
            return "the bad load did not fail"
        if not any(re.match(located, d) for d in r.get("diagnostics", [])):
            return "the bad load's diagnostics are not located in bad/wrong_rank.mlir"
        return None

    rc, responses, stderr = serve(cli, data_dir, [bad])
    serve_case("serve: first load fails", rc, responses, stderr, 1, bad_load_located)
    rc, responses, stderr = serve(cli, data_dir, [good, bad])
    serve_case("serve: a load fails after a good one", rc, responses, stderr, 2, bad_load_located)
    rc, responses, stderr = serve(cli, data_dir, [good, bad, good, json.dumps({"cmd": "start"})])
    serve_case("serve: good load after a failed one", rc, responses, stderr, 4,
               lambda r: None if r[2].get("ok") and r[3].get("ok") else "reload did not work")

    deep = '{"id":' + "[" * 200000 + "]" * 200000 + ',"cmd":"hello"}'
    rc, responses, stderr = serve(cli, data_dir, [deep, json.dumps({"id": 3, "cmd": "hello"})])
    serve_case("serve: deeply nested id", rc, responses, stderr, 2,
               lambda r: None if error_matches(r[0], r"^<stdin>:1:\d+: JSON nested deeper")
               and r[1].get("ok") else "not refused with a location, or the server stopped")

    long_line = json.dumps({"id": 4, "cmd": "hello", "pad": "x" * 5000})
    rc, responses, stderr = serve(cli, data_dir, [long_line, json.dumps({"id": 5, "cmd": "hello"})],
                                  ["--max-line-bytes", "1000"])
    serve_case("serve: line over --max-line-bytes", rc, responses, stderr, 2,
               lambda r: None if error_matches(r[0], r"^<stdin>:1:1: request longer than 1000")
               and r[1].get("ok") and r[1].get("id") == 5 else "not refused, or the next failed")

    rc, responses, stderr = serve(cli, data_dir, ['{"id": 6, "cmd": "hello"', "[1, 2"])
    serve_case("serve: malformed JSON", rc, responses, stderr, 2,
               lambda r: None if error_matches(r[0], r"^<stdin>:1:\d+: ")
               and error_matches(r[1], r"^<stdin>:2:\d+: ") else "parse errors not located")

    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "program.fifo")
        os.mkfifo(fifo)
        rc, responses, stderr = serve(cli, data_dir, [json.dumps({"id": 7, "cmd": "load",
                                                                  "path": fifo})])
        serve_case("serve: load a FIFO", rc, responses, stderr, 1,
                   lambda r: None if r[0].get("ok") is False and any(
                       "not a regular file" in d for d in r[0].get("diagnostics", []))
                   else "a FIFO was not refused")


def main():
    cli, bad_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    data_dir = os.path.dirname(os.path.abspath(bad_dir))
    program_cases(cli, bad_dir)
    device_and_fifo_cases(cli)
    full_stdout_cases(cli, data_dir)
    output_dir_cases(cli, data_dir)
    serve_cases(cli, data_dir)
    print(f"{count - len(failures)}/{count} hostile cases end in a clear error")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
