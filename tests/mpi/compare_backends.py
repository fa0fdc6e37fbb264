#!/usr/bin/env python3
"""Runs programs with `shardscope-cli run --backend local` and, under mpirun, `--backend mpi`, and
checks that both agree bit for bit: the same exit status, the same result files (byte for byte)
and the same printed results and reference summary.

  compare_backends.py --cli CLI --mpirun MPIRUN --np N [--mpirun-arg ARG ...]
                      [--expect-devices-per-rank K] [--conformance DIR] [FILE[:FUNCTION] ...]

Programs: each FILE (every public function when no FUNCTION is given) and, with --conformance,
the `part1.mlir` section of every `executable_*/*.mlir` test of Shardy's export tests (the
sharded programs those tests lower with -sdy-convert-global-to-local; we run them through the
per-device stage, which is the same lowering, on random inputs with the reference check).
A mesh whose size does not divide over N ranks runs with --devices-per-rank 1 (some ranks then
hold no device). `--mpirun-arg=ARG` passes ARG to mpirun (`--mpirun-arg=--hostfile --mpirun-arg=FILE`);
`--expect-devices-per-rank K` also checks the printed device -> rank map: rank r on its host
holds devices rK .. rK+K-1. Exits 1 on any disagreement.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FUNC_RE = re.compile(r"func\.func\s+(public\s+|private\s+)?@([\w$.-]+)")


def functions(text):
    out = []
    for m in FUNC_RE.finditer(text):
        if (m.group(1) or "").strip() == "private" or m.group(2).endswith("_reference") or \
                m.group(2).startswith("sequential_"):
            continue
        out.append(m.group(2))
    return out


def part1(path):
    text = Path(path).read_text()
    if "//--- part1.mlir" not in text:
        return None
    body = text.split("//--- part1.mlir", 1)[1]
    return body.split("//--- part2.mlir", 1)[0]


def interesting(stdout):
    # Everything but the lines that name the backend or the rank map.
    keep = []
    for line in stdout.splitlines():
        if "backend" in line or line.startswith("device -> rank") or line.startswith("  rank "):
            continue
        keep.append(line)
    return keep


LOCATED = re.compile(r"^\S+\.mlir:\d+:\d+: (error|warning): .*$", re.M)


def located(stderr):
    # The program's located diagnostics (deadlocks, op errors), which rank 0 must report as the
    # local backend does; file names differ only by the temporary directory.
    return [Path(m.group(0).split(":", 1)[0]).name + ":" + m.group(0).split(":", 1)[1]
            for m in LOCATED.finditer(stderr)]


def run(cmd, timeout):
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p, time.time() - t0


MAP_LINE = re.compile(r"^  rank (\d+) on (\S+): devices (\d+)-(\d+) \(local index 0-(\d+)\)$", re.M)


def map_problems(stdout, ranks, per_rank):
    # Each rank names its host and holds the next per_rank devices.
    found = {int(m.group(1)): m for m in MAP_LINE.finditer(stdout)}
    problems = []
    if sorted(found) != list(range(ranks)):
        return [f"the device -> rank map lists ranks {sorted(found)}, not 0-{ranks - 1}:\n{stdout}"]
    for r, m in found.items():
        first, last, local = int(m.group(3)), int(m.group(4)), int(m.group(5))
        if (first, last, local) != (r * per_rank, r * per_rank + per_rank - 1, per_rank - 1):
            problems.append(f"rank {r} holds devices {first}-{last}, expected "
                            f"{r * per_rank}-{r * per_rank + per_rank - 1}")
    return problems


def compare(args, program, function, workdir, label):
    local_dir = workdir / "local"
    mpi_dir = workdir / "mpi"
    common = [program, "--function", function, "--inputs", "random:11", "--check-reference"]
    local, _ = run([args.cli, "run", *common, "--output-dir", str(local_dir)], 120)
    mpi_cmd = [args.mpirun, "--oversubscribe", *args.mpirun_arg, "-np", str(args.np), args.cli,
               "run", *common, "--backend", "mpi", "--output-dir", str(mpi_dir)]
    mpi, seconds = run(mpi_cmd, 120)
    if mpi.returncode != 0 and "do not divide" in mpi.stderr:
        mpi, seconds = run(mpi_cmd + ["--devices-per-rank", "1"], 120)
    problems = []
    if local.returncode != mpi.returncode:
        problems.append(f"exit status local {local.returncode}, mpi {mpi.returncode}\n"
                        f"local stderr: {local.stderr[-800:]}\nmpi stderr: {mpi.stderr[-800:]}")
    if located(local.stderr) != located(mpi.stderr):
        problems.append("diagnostics differ:\n--- local\n" + "\n".join(located(local.stderr)) +
                        "\n--- mpi\n" + "\n".join(located(mpi.stderr)))
    if interesting(local.stdout) != interesting(mpi.stdout):
        problems.append("printed results differ:\n--- local\n" + local.stdout + "--- mpi\n" +
                        mpi.stdout)
    local_files = sorted(p.name for p in local_dir.glob("*.npy")) if local_dir.exists() else []
    mpi_files = sorted(p.name for p in mpi_dir.glob("*.npy")) if mpi_dir.exists() else []
    if local_files != mpi_files:
        problems.append(f"result files differ: local {local_files}, mpi {mpi_files}")
    for name in local_files:
        if name in mpi_files and (local_dir / name).read_bytes() != (mpi_dir / name).read_bytes():
            problems.append(f"{name} differs")
    if args.expect_devices_per_rank and mpi.returncode == 0:
        problems += map_problems(mpi.stdout, args.np, args.expect_devices_per_rank)
    status = "ok" if not problems else "MISMATCH"
    ran = "ran" if local.returncode == 0 else f"both exit {local.returncode}"
    print(f"{status:8} {label} @{function} ({ran}, {len(local_files)} results, mpi {seconds:.1f} s)",
          flush=True)
    for p in problems:
        print("    " + p.replace("\n", "\n    "))
    return not problems, local.returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mpirun-arg", action="append", default=[])
    ap.add_argument("--expect-devices-per-rank", type=int)
    ap.add_argument("--conformance")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()

    cases = []  # (program path, function, label)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for spec in args.programs:
            path, _, fn = spec.partition(":")
            fns = [fn] if fn else functions(Path(path).read_text())
            cases += [(path, f, Path(path).name) for f in fns]
        if args.conformance:
            for test in sorted(Path(args.conformance).glob("executable_*/*.mlir")):
                text = part1(test)
                if text is None:
                    continue
                extracted = tmp / f"{test.parent.name}__{test.stem}.mlir"
                extracted.write_text(text)
                label = f"{test.parent.name}/{test.name}"
                cases += [(str(extracted), f, label) for f in functions(text)]
        failures = 0
        ran = 0
        for i, (path, fn, label) in enumerate(cases):
            ok, executed = compare(args, path, fn, tmp / f"case{i}", label)
            failures += not ok
            ran += executed
        print(f"{len(cases)} programs, {ran} ran to completion on both backends, "
              f"{failures} disagreements (np {args.np})")
        return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
