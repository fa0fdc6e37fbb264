#!/usr/bin/env python3
"""Self-test of run_conformance.py against a tiny fake corpus and a fake sdy_opt (fake_cli.py).

The fake corpus (selftest/corpus) has cases that pass and cases that fail on purpose; their
comments say why. This checks case splitting, line padding, chunk isolation, CHECK-LABEL
sections, `not`, RUN-line continuations, timeouts, the ratchet and the exit codes.
Exit status: 0 all good, 1 a check failed, 77 skipped (FileCheck not installed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNNER = HERE.parent / "run_conformance.py"
CORPUS = HERE / "corpus"
FAKE_CLI = HERE / "fake_cli.py"
FILECHECK = Path(os.environ.get("FILECHECK", "/usr/lib/llvm-14/bin/FileCheck"))
SKIP = 77

EXPECTED_STATUS = {
    "executable/interpreted.mlir:1": "unsupported",
    "labels/labels.mlir:6": "fail",  # a check before the first label belongs to this case
    "labels/labels.mlir:9": "pass",  # [[@LINE-1]] needs the check file on original lines
    "labels/labels.mlir:14": "fail",
    "labels/prefix.mlir:3": "pass",  # --check-prefix=FOO: FOO-LABEL splits, CHECK is ignored
    "labels/prefix.mlir:8": "pass",
    "misc/hang.mlir:1": "fail",  # timeout
    "misc/not.mlir:1": "pass",
    "misc/whole.mlir:1": "pass",  # RUN line continued with a backslash
    "split/filecheck.mlir:1": "pass",
    "split/filecheck.mlir:8": "pass",  # literal line number: chunk padded to original lines
    "split/filecheck.mlir:16": "fail",  # chunk one's output must not leak into this chunk
    "split/unchecked.mlir:1": "pass",
    "split/unchecked.mlir:7": "pass",  # no directives of the RUN line's prefixes in the chunk
    "split/unchecked.mlir:13": "fail",  # ... but the tool itself must still succeed
    "split/verify.mlir:1": "pass",
    "split/verify.mlir:7": "pass",
    "split/verify.mlir:13": "fail",
}
PASSING = sorted(i for i, s in EXPECTED_STATUS.items() if s == "pass")

failures: list[str] = []


def check(condition: bool, what: str, detail: str = "") -> None:
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)
        if detail:
            detail = detail if len(detail) < 3000 else "..." + detail[-3000:]
            print("      " + detail.replace("\n", "\n      "))


def run(*args: str, env: dict | None = None) -> tuple[int, str]:
    command = [sys.executable, str(RUNNER), "--cli", str(FAKE_CLI), "--corpus", str(CORPUS),
               "--filecheck", str(FILECHECK), "--timeout", "3", *args]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def write_list(path: Path, ids: list[str]) -> Path:
    path.write_text("# a comment line\n\n" + "".join(f"{i}\n" for i in ids))
    return path


def test_case_ids() -> None:
    rc, out = run("--list-cases")
    check(rc == 0 and out.split() == list(EXPECTED_STATUS), "case ids and order", out)


def test_full_run(tmp: Path) -> None:
    log, results, report = tmp / "cli.log", tmp / "results.json", tmp / "report.md"
    env = dict(os.environ, FAKE_CLI_LOG=str(log))
    started = time.monotonic()
    rc, out = run("--expected", str(tmp / "none.txt"), "--results-json", str(results),
                  "--report", str(report), "--verbose-failures", "10", env=env)
    elapsed = time.monotonic() - started
    check(rc == 0, "exit 0 with an empty expected list", out)
    statuses = json.loads(results.read_text()) if results.exists() else {}
    for case_id, want in EXPECTED_STATUS.items():
        got = statuses.get(case_id)
        check(got == want, f"{case_id} is {want}", f"got {got}")
    check(any(l.split()[:5] == ["TOTAL", "11", "6", "1", "18"] for l in out.splitlines()),
          "TOTAL row: 11 pass, 6 fail, 1 unsupported, 18 cases", out)
    check("verify.mlir:16:4: error: expected error" in out,
          "split chunk diagnostics keep original line numbers", out)
    check("killed after 3s" in out and elapsed < 60, f"hanging tool times out ({elapsed:.0f}s)")
    runs = log.read_text().splitlines() if log.exists() else []
    check(sum(r.endswith("labels.mlir") for r in runs) == 1,
          "CHECK-LABEL file: tool runs once for all its cases", "\n".join(runs))
    text = report.read_text() if report.exists() else ""
    check("| `labels/labels.mlir` | 1 | 3 | 33.3 |" in text, "Markdown report per file", text)
    check("| `TOTAL` | 11 | 18 | 61.1 |" in text, "Markdown report total", text)


def test_ratchet(tmp: Path) -> None:
    listed = write_list(tmp / "expected.txt", ["labels/labels.mlir:6", PASSING[0]])
    rc, out = run("--expected", str(listed), "--filter", "labels")
    check(rc == 1, "a listed failing case exits 1", out)
    check("REGRESSION: labels/labels.mlir:6" in out, "regression is named", out)
    check(f"REGRESSION: {PASSING[0]}" not in out, "passing listed case is no regression", out)

    rc, out = run("--expected", str(listed), "--filter", "split")
    check(rc == 0, "--filter: listed cases outside the filter are not judged", out)

    rc, out = run("--expected", str(listed), "--update-expected")
    ids = [l for l in listed.read_text().splitlines() if l and not l.startswith("#")]
    want = sorted(set(PASSING) | {"labels/labels.mlir:6"},
                  key=lambda i: (i.rpartition(":")[0], int(i.rpartition(":")[2])))
    check(rc == 1 and ids == want, "--update-expected keeps old ids and adds passing ones",
          f"rc={rc}\n" + "\n".join(ids))

    ok_list = write_list(tmp / "ok.txt", PASSING)
    rc, out = run("--expected", str(ok_list))
    check(rc == 0 and "Ratchet OK" in out, "all listed cases pass: exit 0", out)

    gone = write_list(tmp / "gone.txt", ["split/verify.mlir:2"])
    rc, out = run("--expected", str(gone), "--filter", "split")
    check(rc == 1 and "no such case" in out, "a listed id missing from the corpus fails", out)


def test_environment_errors(tmp: Path) -> None:
    rc, out = run("--corpus", str(tmp / "missing"))
    check(rc == 0 and "conformance corpus not found at" in out, "missing corpus: skip, exit 0",
          out)
    rc, out = run("--cli", str(tmp / "no-such-cli"), "--expected", str(tmp / "none.txt"))
    check(rc == 2, "missing CLI: exit 2", out)


def main() -> int:
    if not FILECHECK.is_file():
        print(f"skipped: FileCheck not found at {FILECHECK}")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="conformance-selftest-") as tmp:
        test_case_ids()
        test_full_run(Path(tmp))
        test_ratchet(Path(tmp))
        test_environment_errors(Path(tmp))
    print(f"\n{len(failures)} failed checks" if failures else "\nall checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
