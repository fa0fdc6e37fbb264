#!/usr/bin/env python3
"""Checks shardscope-cli against the hand-derived expectations of the real programs.

usage: run_real_programs.py SHARDSCOPE_CLI DATA_DIR [--only FILE] [--update-today]

DATA_DIR holds the programs and `expectations.json` (tests/data/real). For every program the
script runs `check`, `partition --collectives-only` and `run --check-reference`, and tests each
assertion of its entry:
  check.meshes        `check` prints its summary and lists exactly these meshes (and
                      any of `meshes_optional`)
  check.arg:NAME      the argument's PartitionSpec column in `check` is the expected one
  partition           `partition --collectives-only` exits 0
  partition.coll:X    its collective table has a row matching the regular expression X
  run                 `run --check-reference` exits 0 with no divergence, or exits 1 with an
                      error containing the expected text
A result line is printed per assertion: PASS, FAIL (an assertion listed under `today` that no
longer holds: a regression), XFAIL (not yet expected to hold) or XPASS (holds although not listed
under `today`: add it there). The exit status is 1 when any assertion regressed or a command
crashed or hung; every program and assertion is reported either way.
`--update-today` rewrites each entry's `today` list from this run (after a reviewed change).
"""

import json
import os
import re
import subprocess
import sys

TIMEOUT = 120


def run_cli(cli, args, cwd):
    try:
        proc = subprocess.run([cli] + args, cwd=cwd, capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % TIMEOUT
    return proc.returncode, proc.stdout, proc.stderr


def crashed(code):
    # A negative status is a signal; anything but 0 and 1 is not how the CLI fails.
    return code is None or code < 0 or code > 1


def check_section(stdout):
    """Meshes and @main's argument rows from `check`."""
    meshes, args = [], {}
    in_meshes, in_main, in_args = False, False, False
    for line in stdout.splitlines():
        if line.startswith("meshes:"):
            in_meshes = True
            continue
        if in_meshes:
            if line.startswith("  @"):
                meshes.append(re.sub(r"\s+\(\d+ devices?\)$", "", line.strip()))
                continue
            in_meshes = False
        if line.startswith("func "):
            in_main = line.strip() == "func @main"
            in_args = False
            continue
        if in_main and line.strip() == "arguments":
            in_args = True
            continue
        if in_args:
            if not line.startswith("    "):
                in_args = False
                continue
            # `%arg0  f32[8@x,16]  P('x', None)  argument`: columns are two or more spaces apart.
            cols = re.split(r"\s{2,}", line.strip())
            if len(cols) >= 3:
                args[cols[0]] = cols[2]
    return meshes, args


def evaluate(cli, data_dir, entry):
    """Returns a list of (assertion, ok, detail) and whether a command crashed."""
    name = entry["file"]
    results, crash = [], []

    code, out, err = run_cli(cli, ["check", name], data_dir)
    if crashed(code):
        crash.append("check: exit %s: %s" % (code, err.strip()[-300:]))
    # `check` prints its summary also when it reports errors about the program (JAX's
    # replication check of a shard_map lowered with the check off, ...); a program it cannot
    # load has no summary.
    summary = "meshes:" in out
    meshes, args = check_section(out) if summary else ([], {})
    why = "" if summary else "check exit %s: %s" % (code, err.strip().splitlines()[:1] or "")
    optional = set(entry.get("meshes_optional", []))
    ok = summary and sorted(m for m in meshes if m not in optional) == sorted(entry["meshes"])
    results.append(("check.meshes", ok, why or "expected %s, got %s" % (entry["meshes"], meshes)))
    for arg in entry["arguments"]:
        got = args.get(arg["name"])
        results.append(("check.arg:" + arg["name"], summary and got == arg["pspec"],
                        why or "expected %s, got %s" % (arg["pspec"], got)))

    code, out, err = run_cli(cli, ["partition", name, "--collectives-only"], data_dir)
    if crashed(code):
        crash.append("partition: exit %s: %s" % (code, err.strip()[-300:]))
    pwhy = "" if code == 0 else "exit %s: %s" % (code, err.strip().splitlines()[-1:] or "")
    results.append(("partition", code == 0, pwhy))
    for pattern in entry["partition"].get("collectives", []):
        found = code == 0 and re.search(pattern, out) is not None
        results.append(("partition.coll:" + pattern, found, pwhy or "no row matches"))

    run = entry.get("run")
    if run:
        code, out, err = run_cli(cli, ["run", name, "--check-reference"], data_dir)
        if crashed(code):
            crash.append("run: exit %s: %s" % (code, err.strip()[-300:]))
        if run["expect"] == "pass":
            ok = code == 0 and "first divergence" not in out
            detail = "exit %s: %s" % (code, (err.strip() or out.strip()).splitlines()[-1:] or "")
        else:
            ok = code == 1 and run["contains"] in err and "error" in err
            detail = "exit %s, expected an error containing %r: %s" % (
                code, run["contains"], err.strip().splitlines()[:1])
        results.append(("run", ok, detail))
    return results, crash


def main():
    argv = sys.argv[1:]
    update = "--update-today" in argv
    argv = [a for a in argv if a != "--update-today"]
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 2:
        print(__doc__)
        return 2
    cli, data_dir = os.path.abspath(argv[0]), argv[1]
    path = os.path.join(data_dir, "expectations.json")
    with open(path) as f:
        doc = json.load(f)

    counts = {"PASS": 0, "FAIL": 0, "XFAIL": 0, "XPASS": 0}
    crashes = []
    for entry in doc["programs"]:
        if only and entry["file"] != only:
            continue
        today = set(entry.get("today", []))
        results, crash = evaluate(cli, data_dir, entry)
        crashes += ["%s: %s" % (entry["file"], c) for c in crash]
        print("%s (%s)" % (entry["file"], entry["form"]))
        for assertion, ok, detail in results:
            expected_now = assertion in today
            status = ("PASS" if expected_now else "XPASS") if ok else (
                "FAIL" if expected_now else "XFAIL")
            counts[status] += 1
            print("  %-5s %s%s" % (status, assertion, "" if ok else "  -- " + str(detail)))
        if update:
            entry["today"] = [a for a, ok, _ in results if ok]
    if update:
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    for c in crashes:
        print("CRASH " + c)
    total = sum(counts.values())
    print("real programs: %d assertions: %d pass, %d regressed, %d not yet, %d newly passing; "
          "%d crashes" % (total, counts["PASS"], counts["FAIL"], counts["XFAIL"], counts["XPASS"],
                          len(crashes)))
    failed = counts["FAIL"] + len(crashes)
    print("%d passed, %d failed, %d skipped" % (counts["PASS"] + counts["XPASS"], failed,
                                                 counts["XFAIL"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
