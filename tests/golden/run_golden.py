#!/usr/bin/env python3
"""Golden tests of the command line: run each case and compare exit code, stdout and stderr byte
for byte with its `.out` file. Cases run with `tests/data` as the working directory so that paths
in messages are relative and stable. SHARDSCOPE_UPDATE_GOLDENS=1 rewrites the `.out` files."""
import difflib
import os
import shlex
import subprocess
import sys


def render(rc, stdout, stderr):
    return f"exit: {rc}\n--- stdout\n{stdout}--- stderr\n{stderr}"


def run_case(cli, data_dir, args):
    proc = subprocess.run([cli] + shlex.split(args), cwd=data_dir, capture_output=True,
                          stdin=subprocess.DEVNULL,
                          timeout=60)
    decode = lambda b: b.decode("utf-8", errors="backslashreplace")
    return render(proc.returncode, decode(proc.stdout), decode(proc.stderr))


def main():
    cli, suite_dir, data_dir = sys.argv[1:4]
    update = os.environ.get("SHARDSCOPE_UPDATE_GOLDENS") == "1"
    failures = 0
    with open(os.path.join(suite_dir, "cases.txt")) as f:
        cases = [line.split("|", 1) for line in f if line.strip() and not line.startswith("#")]
    for name, args in cases:
        name, args = name.strip(), args.strip()
        actual = run_case(cli, data_dir, args)
        golden = os.path.join(suite_dir, name + ".out")
        if update:
            with open(golden, "w") as f:
                f.write(actual)
            continue
        expected = open(golden).read() if os.path.exists(golden) else ""
        if actual != expected:
            failures += 1
            print(f"FAIL {name}: shardscope-cli {args}")
            sys.stdout.writelines(difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), golden, "actual"))
    print(f"{len(cases) - failures}/{len(cases)} golden cases match")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
