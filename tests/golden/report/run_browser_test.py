#!/usr/bin/env python3
"""Renders the HTML report of every bundled example in headless Chromium: the screenshot must be a
non-empty PNG, the page must log no console message (errors included), and the marker element the
report's inline script adds after it ran without error (`#ss-ready`) must be in the DOM.

usage: run_browser_test.py SHARDSCOPE_CLI SOURCE_DIR OUT_DIR
Screenshots are kept in OUT_DIR (one PNG per example) for people to look at. Exit 77 (skipped)
when Chromium is not installed."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium(binary, args, timeout=90):
    profile = tempfile.mkdtemp(prefix="shardscope-chromium-")
    try:
        return subprocess.run([binary] + FLAGS + ["--user-data-dir=" + profile] + args,
                              capture_output=True, timeout=timeout, text=True, errors="replace")
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def check(cli, binary, program, out_dir):
    stem = os.path.splitext(os.path.basename(program))[0]
    html = os.path.join(out_dir, stem + ".html")
    png = os.path.join(out_dir, stem + ".png")
    if os.path.exists(png):
        os.remove(png)
    proc = subprocess.run([cli, "report", program, "-o", html], capture_output=True, text=True)
    if proc.returncode != 0:
        return [f"report failed: {proc.stderr.strip()}"]
    url = "file://" + os.path.abspath(html)
    problems = []
    shot = chromium(binary, ["--enable-logging=stderr", "--v=0", "--screenshot=" + png,
                             "--window-size=1400,1000", url])
    console = [line for line in shot.stderr.splitlines() if "CONSOLE" in line]
    problems += [f"console: {line}" for line in console]
    with open(png, "rb") if os.path.exists(png) else open(os.devnull, "rb") as f:
        data = f.read()
    if not data.startswith(b"\x89PNG") or len(data) < 10000:
        problems.append(f"no screenshot ({len(data)} bytes): {shot.stderr[-400:]}")
    dom = chromium(binary, ["--dump-dom", url])
    if 'id="ss-ready"' not in dom.stdout:
        problems.append("the report's script did not finish (#ss-ready missing)")
    return problems


def main():
    cli, source_dir, out_dir = sys.argv[1:4]
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        print("chromium is not installed (cmake/install-deps.sh installs it): skipped")
        return 77
    os.makedirs(out_dir, exist_ok=True)
    programs = sorted(glob.glob(os.path.join(source_dir, "resources/examples/*.mlir")))
    programs += sorted(glob.glob(os.path.join(source_dir, "tests/data/session/*.mlir")))
    failures = 0
    for program in programs:
        problems = check(cli, binary, program, out_dir)
        name = os.path.relpath(program, source_dir)
        print(("FAIL " if problems else "ok   ") + name)
        for p in problems:
            print("     " + p)
        failures += bool(problems)
    print(f"{len(programs) - failures}/{len(programs)} reports render cleanly; screenshots in {out_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
