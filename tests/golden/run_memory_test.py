#!/usr/bin/env python3
"""Execution lets go of values after their last use: peak memory of `interpret` and `run`.

A chain of CHAIN adds over f32 tensors of MB megabytes keeps at most a few tensors alive when each
value is freed after its last use, and CHAIN tensors when every value is kept. Each command runs
in a fresh child whose peak resident set size (getrusage of that child alone) is compared with
the same command on a one-add chain: the difference must stay under 4 tensors, where keeping
every value would cost CHAIN - 1 more.

usage: run_memory_test.py SHARDSCOPE_CLI
"""
import os
import subprocess
import sys
import tempfile

cli = sys.argv[1]
CHAIN, MB = 16, 32
ELEMENTS = MB * 1024 * 1024 // 4
failures = []

# Runs argv in a child of a fresh Python, so RUSAGE_CHILDREN holds that one command's peak.
PEAK = """
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(f"{r.returncode} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n")
sys.stderr.write(r.stdout + r.stderr)
"""


# Under AddressSanitizer freed blocks wait in a quarantine (256 MB by default) before their pages
# can be reused, which would count as memory the program keeps: turn it off for these children.
ENV = dict(os.environ)
if "ASAN_OPTIONS" in ENV:
    ENV["ASAN_OPTIONS"] += ":quarantine_size_mb=0:thread_local_quarantine_size_kb=0"


def peak_kib(*argv):
    r = subprocess.run([sys.executable, "-c", PEAK, *argv], capture_output=True, text=True,
                       timeout=300, env=ENV)
    code, kib = r.stdout.split()
    if code != "0":
        failures.append(f"{' '.join(argv)} exited {code}:\n{r.stderr[-2000:]}")
    return int(kib), r.stderr


def chain_program(length, entry_takes_input):
    """`length` adds, each of the previous sum and the first value, then one element sliced out
    so the output stays small. Its value is (length + 1) * x[0]."""
    t = f"tensor<{ELEMENTS}xf32>"
    lines = []
    if entry_takes_input:
        lines.append(f"func.func @main(%x: {t}) -> tensor<1xf32> {{")
        first = "%x"
    else:
        lines.append("func.func @main() -> tensor<1xf32> {")
        lines.append(f"  %x = stablehlo.constant dense<0.5> : {t}")
        first = "%x"
    prev = first
    for i in range(length):
        lines.append(f"  %s{i} = stablehlo.add {prev}, {first} : {t}")
        prev = f"%s{i}"
    lines.append(f"  %r = stablehlo.slice {prev} [0:1] : ({t}) -> tensor<1xf32>")
    lines.append("  return %r : tensor<1xf32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def check_chain(label, command, entry_takes_input, expected_text):
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for length in (1, CHAIN):
            paths[length] = os.path.join(tmp, f"chain_{length}.mlir")
            with open(paths[length], "w") as f:
                f.write(chain_program(length, entry_takes_input))
        base, _ = peak_kib(cli, *command(paths[1]))
        peak, output = peak_kib(cli, *command(paths[CHAIN]))
        tensors = (peak - base) / (MB * 1024)
        print(f"{label}: {CHAIN} chained adds of {MB} MB peak at {tensors:.2f} tensors above a "
              f"one-add chain ({base // 1024} MB -> {peak // 1024} MB)")
        if tensors >= 4:
            failures.append(f"{label}: {tensors:.2f} tensors above a one-add chain (limit 4; "
                            f"keeping every value costs {CHAIN - 1})")
        if expected_text not in output:
            failures.append(f"{label}: the result {expected_text!r} is not in the output:\n"
                            f"{output[-2000:]}")


# 0.5 added to itself CHAIN times on top: (CHAIN + 1) * 0.5.
check_chain("interpret", lambda path: ["interpret", path], False, f"{(CHAIN + 1) * 0.5:.6e}")
# `run` with generated inputs of ones: (CHAIN + 1) * 1.
check_chain("run", lambda path: ["run", path, "--inputs", "ones"], True, f"{CHAIN + 1:.6e}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
