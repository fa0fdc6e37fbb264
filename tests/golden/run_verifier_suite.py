#!/usr/bin/env python3
"""The StableHLO verifier's hostile suite and its valid counterparts.

Every file in BAD_DIR breaks one rule of one StableHLO op (its first line, a comment, names the
rule: the spec constraint and the TypeInference.cpp function or ODS constraint that states it).
The line before the offending op carries MLIR's annotation

    // expected-error@+1 {{<StableHLO's message>}}

(a failed type inference adds MLIR's `failed to infer returned types`, annotated with `@+2`).
For each such file, `check`, `run` and `partition` must exit 1 within the time limit and print
every annotated message as a located error `<file>:<line>:<col>: error: ...<message>` (the
message ends the line; as in MLIR, it may follow the op's prefix) and nothing a crash prints;
`opt -verify-diagnostics` must accept the annotations (exit 0). Every file in
VALID_DIR holds edge cases the rules must accept: `check`, `run` and `partition` exit 0.

usage: run_verifier_suite.py CLI BAD_DIR VALID_DIR
Prints `N passed, M failed` and exits 1 when anything failed.
"""
import os
import re
import subprocess
import sys

# Each run's bound, as for the hostile inputs: sanitizer builds raise it (cmake/dev.sh asan).
TIMEOUT_S = float(os.environ.get("SHARDSCOPE_HOSTILE_TIMEOUT", "10"))
COMMANDS = (["check"], ["run"], ["partition"])
CRASH_MARKS = ("Assertion", "AddressSanitizer", "runtime error:", "terminate called",
               "Segmentation fault", "core dumped")
ANNOTATION = re.compile(r"//\s*expected-error@\+(\d+)\s*\{\{(.*)\}\}")


def run(cli, args):
    try:
        proc = subprocess.run([cli] + args, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {TIMEOUT_S:g} s"
    return proc.returncode, proc.stdout, proc.stderr


def expectations(path):
    """Returns (first line, [(line, message)]) of an annotated file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    expected = []
    for number, text in enumerate(lines, start=1):
        m = ANNOTATION.search(text)
        if m:
            expected.append((number + int(m.group(1)), m.group(2)))
    return lines[0], expected


def check_bad(cli, path):
    problems = []
    name = os.path.basename(path)
    first, expected = expectations(path)
    if not first.startswith("// ") or len(first) < 12:
        problems.append("the first line must be a comment naming the rule")
    if not expected:
        problems.append("no expected-error annotation")
        return problems
    for command in COMMANDS:
        rc, _, err = run(cli, command + [path])
        label = " ".join(command)
        if rc != 1:
            problems.append(f"{label}: exit code {rc}, expected 1 ({err.strip()[:200]})")
        for line, message in expected:
            located = re.compile(re.escape(name) + ":" + str(line) + r":\d+: error: .*" +
                                 re.escape(message) + r"$", re.M)
            if not located.search(err):
                problems.append(f"{label}: no located error '{name}:{line}:<col>: error: "
                                f"{message}'\n--- stderr ---\n{err}")
        for mark in CRASH_MARKS:
            if mark in err:
                problems.append(f"{label}: crash output ({mark})")
    rc, _, err = run(cli, ["opt", path, "-verify-diagnostics"])
    if rc != 0:
        problems.append(f"opt -verify-diagnostics: exit code {rc}\n{err}")
    return problems


def check_valid(cli, path):
    problems = []
    for command in COMMANDS:
        rc, _, err = run(cli, command + [path])
        if rc != 0:
            problems.append(f"{' '.join(command)}: exit code {rc}\n{err}")
    return problems


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, bad_dir, valid_dir = sys.argv[1:]
    cases = [(os.path.join(bad_dir, f), check_bad) for f in sorted(os.listdir(bad_dir))
             if f.endswith(".mlir")]
    cases += [(os.path.join(valid_dir, f), check_valid) for f in sorted(os.listdir(valid_dir))
              if f.endswith(".mlir")]
    passed = failed = 0
    for path, checker in cases:
        problems = checker(cli, path)
        if problems:
            failed += 1
            print(f"FAIL {path}")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
