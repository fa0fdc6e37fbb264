#!/usr/bin/env python3
"""Runs `shardscope-cli check EXAMPLE` on an example that shows errors on purpose: every
`// EXPECTED-ERROR: <message>` line of the example must be reported as a located error
(`<file>:<line>:<col>: error: <message>`), and check must exit 1.

usage: expect_errors.py CLI EXAMPLE
"""
import re
import subprocess
import sys


def main():
    cli, example = sys.argv[1], sys.argv[2]
    with open(example, encoding="utf-8") as f:
        expected = [line.split(":", 1)[1].strip() for line in f
                    if line.startswith("// EXPECTED-ERROR:")]
    if not expected:
        print(f"{example}: no // EXPECTED-ERROR: line")
        return 1
    run = subprocess.run([cli, "check", example], capture_output=True, text=True, timeout=60)
    failures = []
    if run.returncode != 1:
        failures.append(f"exit code {run.returncode}, expected 1")
    name = re.escape(example.rsplit("/", 1)[-1])
    for message in expected:
        pattern = name + r":\d+:\d+: error: " + re.escape(message)
        if not re.search(pattern, run.stderr):
            failures.append(f"missing located error: {message}")
    for failure in failures:
        print(f"{example}: {failure}")
    if failures:
        print("--- stderr ---\n" + run.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
