#!/usr/bin/env python3
"""Conformance runner: measures shardscope-cli against Shardy's own lit test suite.

Shardy's tests are lit tests written for `sdy_opt`. This runner executes their `// RUN:` lines
with `sdy_opt` replaced by `<cli> opt`, but scores them per *case* rather than per file, so that
progress is visible long before whole files pass:

  * a file whose RUN line has `-split-input-file`: one case per `// -----` chunk;
  * any other file whose RUN line pipes into FileCheck: one case per CHECK-LABEL section
    (check lines before the first label belong to the first section);
  * anything else: one case per file.

A case id is `<path relative to corpus>:<line where the chunk / label starts>`. The ratchet file
(expected_pass.txt) lists case ids that passed before; any of them failing now is a regression.

Only the Python 3 standard library is used (CI runs this on Debian 12's python3).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import posixpath
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPT_DIR.parents[1]
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance" / "shardy"
DEFAULT_EXPECTED = SCRIPT_DIR / "expected_pass.txt"

EXPECTED_HEADER = (
    "# Conformance ratchet: case ids (<file relative to the corpus>:<start line>) that pass.\n"
    "# Every listed case must keep passing. The list only grows: regenerate it with\n"
    "# run_conformance.py --cli <shardscope-cli> --update-expected\n"
)

SPLIT_MARKER = "// -----"
RUN_RE = re.compile(r"\bRUN:(.*)$")
SPLIT_OPTION_RE = re.compile(r"\s+--?split-input-file(?:=\S+)?(?!\S)")
# Tools that RUN lines name and that we map onto concrete binaries (like lit's tool substitutions).
TOOL_WORD_RE = r"(?<![\w./%-]){}(?![\w.-])"
# Helper scripts next to the tests, run through bash: copies of the corpus may lose the x bit.
SCRIPT_RE = re.compile(r"(^\s*|[|;&]\s*)(%[Sp]/\S+\.sh)(?=\s|$)")
# Executable tests need an interpreter that ShardScope does not provide (yet).
INTERPRETER_RE = re.compile(r"stablehlo-translate|run_sdy_interpreter_test\.sh")
LOG_LIMIT = 6000  # characters of stdout/stderr kept per command for --verbose-failures

PASS, FAIL, UNSUPPORTED = "pass", "fail", "unsupported"


# ----------------------------------------------------------------------------------------------
# Parsing test files into cases
# ----------------------------------------------------------------------------------------------


@dataclass
class RunLine:
    line: int  # 1-based line of the first `RUN:` of this (possibly continued) command
    text: str

    @property
    def stages(self) -> tuple[str, str | None]:
        """(producer, checker): the checker is a trailing `| FileCheck ...` stage, if any.

        The producer is cached per file for CHECK-LABEL cases; the checker runs per case.
        """
        parts = split_top_level_pipes(self.text)
        if len(parts) > 1 and first_word(parts[-1]) == "FileCheck":
            return "|".join(parts[:-1]).strip(), parts[-1].strip()
        return self.text, None

    @property
    def prefixes(self) -> list[str]:
        checker = self.stages[1]
        return checker_prefixes(checker) if checker else []


def parse_run_lines(lines: list[str]) -> list[RunLine]:
    """Collects RUN commands; a trailing backslash continues the command on the next RUN line."""
    runs: list[RunLine] = []
    pending: RunLine | None = None
    for number, line in enumerate(lines, 1):
        match = RUN_RE.search(line)
        if not match:
            continue
        text = match.group(1).strip()
        continued = text.endswith("\\")
        if continued:
            text = text[:-1].rstrip()
        if pending is None:
            pending = RunLine(number, text)
        else:
            pending.text = f"{pending.text} {text}".strip()
        if not continued:
            runs.append(pending)
            pending = None
    if pending is not None:
        runs.append(pending)
    return runs


def split_top_level_pipes(command: str) -> list[str]:
    """Splits a shell command at `|` outside quotes (`||` is left alone)."""
    parts, current, quote, i = [], [], None, 0
    while i < len(command):
        ch = command[i]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "\\" and i + 1 < len(command):
            current.append(ch)
            i += 1
            ch = command[i]
        elif ch == "|":
            if command[i + 1 : i + 2] == "|":
                current.append("||")
                i += 2
                continue
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def first_word(command: str) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    return words[0] if words else ""


def checker_prefixes(checker: str) -> list[str]:
    """The FileCheck prefixes a checker command uses (`CHECK` unless told otherwise)."""
    try:
        args = shlex.split(checker)
    except ValueError:
        return ["CHECK"]
    prefixes: list[str] = []
    for i, arg in enumerate(args):
        name, has_value, value = arg.partition("=")
        if name.lstrip("-") not in ("check-prefix", "check-prefixes"):
            continue
        if not has_value and i + 1 < len(args):
            value = args[i + 1]
        prefixes += [p for p in value.split(",") if p]
    return prefixes or ["CHECK"]


def directive_regex(prefixes: list[str], suffix: str = r"(?:-[\w-]+)?") -> re.Pattern:
    """Matches a FileCheck directive (`CHECK:`, `CHECK-NEXT:`, ...) of the given prefixes."""
    alternatives = "|".join(re.escape(p) for p in sorted(set(prefixes)))
    return re.compile(rf"(?<![\w-])(?:{alternatives}){suffix}(?:\{{LITERAL\}})?:")


@dataclass
class TestFile:
    rel: str  # path relative to the corpus, with `/` separators
    path: Path
    lines: list[str]
    runs: list[RunLine]

    @property
    def is_split(self) -> bool:
        return any(SPLIT_OPTION_RE.search(run.text) for run in self.runs)

    @property
    def prefixes(self) -> list[str]:
        return sorted({p for run in self.runs for p in run.prefixes})

    def needs_interpreter(self) -> bool:
        return any(INTERPRETER_RE.search(run.text) for run in self.runs)


@dataclass(frozen=True)
class Case:
    file: TestFile = field(compare=False)
    kind: str  # "split", "label" or "whole"
    start: int  # line that names the case
    first: int  # first line of the case's range (inclusive)
    last: int  # last line of the case's range (inclusive)

    @property
    def id(self) -> str:
        return f"{self.file.rel}:{self.start}"


def build_cases(test: TestFile) -> list[Case]:
    if test.is_split:
        return split_cases(test)
    if test.prefixes:
        return label_cases(test)
    return [Case(test, "whole", 1, 1, len(test.lines))]


def split_cases(test: TestFile) -> list[Case]:
    cases, start = [], 1
    for number, line in enumerate(test.lines, 1):
        if line.rstrip() == SPLIT_MARKER:
            cases.append(Case(test, "split", start, start, number - 1))
            start = number + 1
    cases.append(Case(test, "split", start, start, len(test.lines)))
    return cases


def label_cases(test: TestFile) -> list[Case]:
    label_re = directive_regex(test.prefixes, suffix="-LABEL")
    starts = [n for n, line in enumerate(test.lines, 1) if label_re.search(line)]
    if not starts:
        return [Case(test, "whole", 1, 1, len(test.lines))]
    firsts = [1] + starts[1:]  # checks before the first label belong to the first case
    lasts = [s - 1 for s in starts[1:]] + [len(test.lines)]
    return [Case(test, "label", s, f, l) for s, f, l in zip(starts, firsts, lasts)]


def discover(corpus: Path, substring: str | None) -> list[TestFile]:
    files = []
    for path in sorted(corpus.rglob("*.mlir")):
        rel = path.relative_to(corpus).as_posix()
        if substring and substring not in rel:
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        runs = parse_run_lines(lines)
        if runs:  # files without RUN lines are inputs of other tests, not tests
            files.append(TestFile(rel, path, lines, runs))
    return files


def padded_text(lines: list[str], first: int, last: int, keep=lambda line: True) -> str:
    """Lines first..last at their original line numbers, blank lines above and for dropped ones.

    Keeping line numbers matters: `expected-error @+1`, `[[@LINE]]` and locations in
    diagnostics all refer to lines of the original file.
    """
    body = [line if keep(line) else "" for line in lines[first - 1 : last]]
    return "\n" * (first - 1) + "\n".join(body) + "\n"


# ----------------------------------------------------------------------------------------------
# Running shell commands
# ----------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    command: str
    rc: int | None  # None: killed after the timeout
    stdout: bytes = b""
    stderr: bytes = b""
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.rc == 0

    def describe(self) -> str:
        status = "TIMEOUT" if self.rc is None else f"exit {self.rc}"
        text = [f"$ {self.command}", f"[{status}] {self.note}".rstrip()]
        for name, data in (("stdout", self.stdout), ("stderr", self.stderr)):
            if data:
                decoded = data.decode("utf-8", "replace")
                if len(decoded) > LOG_LIMIT:
                    decoded = decoded[:LOG_LIMIT] + f"\n... ({len(decoded) - LOG_LIMIT} more chars)"
                text.append(f"--- {name} ---\n{decoded.rstrip()}")
        return "\n".join(text)


class Shell:
    """Runs RUN-line pipelines with bash, as lit does with pipefail, under a timeout."""

    def __init__(self, env: dict[str, str], timeout: float):
        self.env = env
        self.timeout = timeout

    def run(self, command: str, cwd: Path, stdin_path: Path | None = None) -> Outcome:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            # A new session lets a timeout kill the whole pipeline, not only bash.
            proc = subprocess.Popen(
                ["bash", "-o", "pipefail", "-c", command],
                cwd=cwd, env=self.env, stdin=stdin,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            )
            try:
                out, err = proc.communicate(timeout=self.timeout)
                return Outcome(command, proc.returncode, out, err)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, err = proc.communicate()
                return Outcome(command, None, out, err, f"killed after {self.timeout:g}s")
        finally:
            if stdin_path:
                stdin.close()


class Substituter:
    """lit-style substitutions: tool names, then %s (test file), %S/%p (its dir), %t, %T, %%."""

    def __init__(self, tools: dict[str, str]):
        self.tools = [(re.compile(TOOL_WORD_RE.format(re.escape(name))), value)
                      for name, value in tools.items()]

    def __call__(self, text: str, source: Path, source_dir: Path, temp: Path) -> str:
        text = SCRIPT_RE.sub(r"\1bash \2", text)
        for pattern, value in self.tools:
            text = pattern.sub(lambda _m, v=value: v, text)
        values = {"s": str(source), "S": str(source_dir), "p": str(source_dir),
                  "t": str(temp), "T": str(temp.parent)}

        def percent(match: re.Match) -> str:
            key = match.group(1)
            return "%" if key == "%" else shlex.quote(values[key])

        return re.sub(r"%([%sSptT])", percent, text)


# ----------------------------------------------------------------------------------------------
# Running cases
# ----------------------------------------------------------------------------------------------


@dataclass
class Result:
    case: Case
    status: str
    log: str = ""


@dataclass
class ProducerRun:
    """One RUN line's producer stage, run once per file and shared by its CHECK-LABEL cases."""

    run: RunLine
    outcome: Outcome | None  # None: not run because an earlier RUN line failed
    output: Path | None = None


class ProducerCache:
    """Runs each file's producers once, even when several threads ask at the same time."""

    def __init__(self, compute):
        self._compute = compute
        self._guard = threading.Lock()
        self._entries: dict[str, tuple[threading.Lock, list]] = {}

    def get(self, test: TestFile) -> list[ProducerRun]:
        with self._guard:
            lock, box = self._entries.setdefault(test.rel, (threading.Lock(), []))
        with lock:
            if not box:
                box.append(self._compute(test))
            return box[0]


class CaseRunner:
    def __init__(self, shell: Shell, substitute: Substituter, work_root: Path,
                 run_interpreter_tests: bool):
        self.shell = shell
        self.substitute = substitute
        self.work_root = work_root
        self.run_interpreter_tests = run_interpreter_tests
        self.producers = ProducerCache(self._run_producers)
        self._file_dirs: dict[str, Path] = {}
        self._dirs_lock = threading.Lock()

    def run(self, index: int, case: Case) -> Result:
        if case.file.needs_interpreter() and not self.run_interpreter_tests:
            return Result(case, UNSUPPORTED, "needs an interpreter (see --stablehlo-translate)")
        workdir = self.work_root / f"case{index:05d}"
        workdir.mkdir(parents=True)
        if case.kind == "label":
            return self._run_label_case(case, workdir)
        source = case.file.path
        if case.kind == "split":
            source = workdir / case.file.path.name
            source.write_text(padded_text(case.file.lines, case.first, case.last))
        return self._run_pipelines(case, source, workdir)

    def _command(self, text: str, test: TestFile, source: Path, workdir: Path) -> str:
        return self.substitute(text, source, test.path.parent, workdir / "t")

    def _run_pipelines(self, case: Case, source: Path, workdir: Path) -> Result:
        """Split chunks and whole files: every RUN line in order, as lit would on that file."""
        log = []
        chunk_lines = case.file.lines[case.first - 1 : case.last]
        for run in case.file.runs:
            text = SPLIT_OPTION_RE.sub("", run.text) if case.kind == "split" else run.text
            if case.kind == "split":
                text = self._checked_in_chunk(run, text, chunk_lines)
            outcome = self.shell.run(self._command(text, case.file, source, workdir), workdir)
            log.append(outcome.describe())
            if not outcome.ok:
                return Result(case, FAIL, "\n".join(log))
        return Result(case, PASS, "\n".join(log))

    @staticmethod
    def _checked_in_chunk(run: RunLine, text: str, chunk_lines: list[str]) -> str:
        """The command for one chunk. lit runs FileCheck on the whole file, where a chunk without
        directives of a RUN line's prefixes leaves that chunk's output unchecked; run alone, that
        FileCheck would reject its check file ("no check strings found"). Such a chunk still
        needs the producer to succeed."""
        if not run.prefixes:
            return text
        used = [p for p in run.prefixes
                if any(directive_regex([p]).search(line) for line in chunk_lines)]
        if not used:
            return SPLIT_OPTION_RE.sub("", run.stages[0])
        if len(used) < len(run.prefixes):
            return text + " --allow-unused-prefixes"
        return text

    def _file_dir(self, test: TestFile) -> Path:
        with self._dirs_lock:
            if test.rel not in self._file_dirs:
                path = self.work_root / f"file{len(self._file_dirs):04d}"
                path.mkdir(parents=True)
                self._file_dirs[test.rel] = path
            return self._file_dirs[test.rel]

    def _run_producers(self, test: TestFile) -> list[ProducerRun]:
        workdir = self._file_dir(test)
        results: list[ProducerRun] = []
        for index, run in enumerate(test.runs):
            if results and not results[-1].outcome.ok:
                results.append(ProducerRun(run, None))  # lit stops at the first failing RUN
                continue
            command = self._command(run.stages[0], test, test.path, workdir)
            outcome = self.shell.run(command, workdir)
            output = workdir / f"run{index}.out"
            output.write_bytes(outcome.stdout)
            results.append(ProducerRun(run, outcome, output))
        return results

    def _run_label_case(self, case: Case, workdir: Path) -> Result:
        check_file = workdir / (case.file.path.name + ".check")
        check_re = directive_regex(case.file.prefixes)
        text = padded_text(case.file.lines, case.first, case.last,
                           keep=lambda line: bool(check_re.search(line)))
        # Likewise every earlier label: lit matches all labels in order, so this section's label
        # is searched for only after them, and a label that is a prefix of an earlier function's
        # name (`xy_to_y` after `xy_to_yx`) cannot match that function.
        label_re = directive_regex(case.file.prefixes, suffix="-LABEL")
        if case.first > 1:
            lines = text.split("\n")
            for n in range(1, case.first):
                if label_re.search(case.file.lines[n - 1]):
                    lines[n - 1] = case.file.lines[n - 1]
            text = "\n".join(lines)
        # lit runs the whole file, where the next CHECK-LABEL bounds this section's CHECK-NOTs;
        # keep that label so a trailing CHECK-NOT does not scan the rest of the output.
        if case.last < len(case.file.lines):
            next_line = case.file.lines[case.last]
            label_re = directive_regex(case.file.prefixes, suffix="-LABEL")
            text += (next_line if label_re.search(next_line) else "") + "\n"
        check_file.write_text(text)
        case_lines = case.file.lines[case.first - 1 : case.last]
        log = []
        for producer in self.producers.get(case.file):
            if producer.outcome is None:
                log.append("(not run: an earlier RUN line failed)")
                return Result(case, FAIL, "\n".join(log))
            log.append(producer.outcome.describe())
            if not producer.outcome.ok:
                return Result(case, FAIL, "\n".join(log))
            outcome = self._run_checker(case, producer, case_lines, check_file, workdir)
            if outcome is not None:
                log.append(outcome.describe())
                if not outcome.ok:
                    return Result(case, FAIL, "\n".join(log))
        return Result(case, PASS, "\n".join(log))

    def _run_checker(self, case: Case, producer: ProducerRun, case_lines: list[str],
                     check_file: Path, workdir: Path) -> Outcome | None:
        checker = producer.run.stages[1]
        if checker is None:
            return None
        # A section without directives of this RUN line's prefixes does not test that RUN line
        # (FileCheck would reject an empty check file).
        used = [p for p in producer.run.prefixes
                if any(directive_regex([p]).search(line) for line in case_lines)]
        if not used:
            return None
        if len(used) < len(producer.run.prefixes):
            checker += " --allow-unused-prefixes"
        command = self._command(checker, case.file, check_file, workdir)
        return self.shell.run(command, workdir, stdin_path=producer.output)


def run_guarded(runner: CaseRunner, index: int, case: Case) -> Result:
    """A runner bug or an unreadable file fails one case instead of aborting the suite."""
    try:
        return runner.run(index, case)
    except Exception:  # pylint: disable=broad-except
        return Result(case, FAIL, "runner error:\n" + traceback.format_exc())


def run_all(cases: list[Case], runner: CaseRunner, jobs: int) -> list[Result]:
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run_guarded, runner, i, case) for i, case in enumerate(cases)]
        return [future.result() for future in futures]


# ----------------------------------------------------------------------------------------------
# Environment: the tools RUN lines call
# ----------------------------------------------------------------------------------------------

NOT_SCRIPT = """#!/bin/bash
# Like LLVM's `not`: succeeds when the command fails normally (a crash or signal is a failure).
"$@"
rc=$?
if [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then exit 1; fi
exit 0
"""


def write_executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def make_bin_dir(root: Path, opts: argparse.Namespace) -> Path:
    """Tools on PATH for RUN lines (`not`) and for scripts they call (interpreter tests)."""
    bin_dir = root / "bin"
    bin_dir.mkdir()
    cli = shlex.quote(str(opts.cli))
    write_executable(bin_dir / "sdy_opt", f'#!/bin/sh\nexec {cli} opt "$@"\n')
    # StableHLO's RUN lines lower CHLO first (`stablehlo-opt --chlo-legalize-to-stablehlo`);
    # `opt` implements the passes they name and rejects any other one.
    write_executable(bin_dir / "stablehlo-opt", f'#!/bin/sh\nexec {cli} opt "$@"\n')
    write_executable(bin_dir / "not", NOT_SCRIPT)
    if opts.interpret:  # `stablehlo-translate --interpret FILE` -> `shardscope-cli interpret ...`
        write_executable(bin_dir / "stablehlo-translate", f'#!/bin/sh\nexec {cli} interpret "$@"\n')
        opts.stablehlo_translate = bin_dir / "stablehlo-translate"
    for name, target in (("FileCheck", opts.filecheck), ("split-file", opts.split_file),
                         ("stablehlo-translate", None if opts.interpret else opts.stablehlo_translate)):
        if target:
            (bin_dir / name).symlink_to(Path(target).resolve())
    return bin_dir


def make_environment(bin_dir: Path, opts: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["FILECHECK_OPTS"] = "-enable-var-scope"  # as Shardy's lit.cfg.py
    env["SDY_OPT"] = str(bin_dir / "sdy_opt")
    env["SPLIT_FILE"] = str(opts.split_file)
    if opts.stablehlo_translate:
        env["STABLEHLO_TRANSLATE"] = str(opts.stablehlo_translate)
    return env


def make_substituter(opts: argparse.Namespace) -> Substituter:
    tools = {
        "sdy_opt": f"{shlex.quote(str(opts.cli))} opt",
        "stablehlo-opt": f"{shlex.quote(str(opts.cli))} opt",
        "FileCheck": shlex.quote(str(opts.filecheck)),
        "split-file": shlex.quote(str(opts.split_file)),
    }
    if opts.stablehlo_translate:
        tools["stablehlo-translate"] = shlex.quote(str(opts.stablehlo_translate))
    return Substituter(tools)


# ----------------------------------------------------------------------------------------------
# Reporting and the ratchet
# ----------------------------------------------------------------------------------------------


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    unsupported: int = 0

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.unsupported

    @property
    def percent(self) -> float:
        return 100.0 * self.passed / self.total if self.total else 0.0

    def add(self, status: str) -> None:
        if status == PASS:
            self.passed += 1
        elif status == UNSUPPORTED:
            self.unsupported += 1
        else:
            self.failed += 1


def tally(results: list[Result], key) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for result in results:
        tallies.setdefault(key(result), Tally()).add(result.status)
    return dict(sorted(tallies.items()))


def summarize(results: list[Result]) -> tuple[dict[str, Tally], dict[str, Tally], Tally]:
    per_file = tally(results, lambda r: r.case.file.rel)
    per_dir = tally(results, lambda r: posixpath.dirname(r.case.file.rel))
    total = Tally()
    for result in results:
        total.add(result.status)
    return per_file, per_dir, total


def text_table(title: str, rows: dict[str, Tally]) -> list[str]:
    width = max([len(title)] + [len(name) for name in rows])
    lines = [f"{title:<{width}}  {'pass':>5} {'fail':>5} {'unsup':>5} {'total':>5} {'%':>6}"]
    for name, t in rows.items():
        lines.append(f"{name:<{width}}  {t.passed:>5} {t.failed:>5} {t.unsupported:>5} "
                     f"{t.total:>5} {t.percent:>6.1f}")
    return lines


def display_root(results: list[Result]) -> str:
    """Common directory of the tested files, left out of the tables to keep them narrow."""
    dirs = {posixpath.dirname(r.case.file.rel) for r in results}
    if not dirs:
        return ""
    root = posixpath.commonpath(sorted(dirs))
    return posixpath.dirname(root) if root in dirs else root


def relative_rows(rows: dict[str, Tally], root: str) -> dict[str, Tally]:
    return {posixpath.relpath(name, root) if root else name: t for name, t in rows.items()}


def grouped_rows(per_file: dict[str, Tally], per_dir: dict[str, Tally],
                 root: str) -> dict[str, Tally]:
    """Directory subtotal rows, each followed by its files' rows (indented base names)."""
    rows: dict[str, Tally] = {}
    for directory, subtotal in per_dir.items():
        rows[posixpath.relpath(directory, root) + "/" if root else directory + "/"] = subtotal
        for name, t in per_file.items():
            if posixpath.dirname(name) == directory:
                rows["  " + posixpath.basename(name)] = t
    return rows


def print_summary(results: list[Result], corpus: Path, elapsed: float) -> None:
    per_file, per_dir, total = summarize(results)
    root = display_root(results)
    print(f"Conformance against {corpus / root}")
    print("\n".join(text_table("file", grouped_rows(per_file, per_dir, root))))
    print()
    print("\n".join(text_table("directory", relative_rows(per_dir, root) | {"TOTAL": total})))
    print(f"\n{total.passed}/{total.total} cases pass ({total.percent:.1f}%), "
          f"{total.unsupported} unsupported, in {elapsed:.1f}s")


def markdown_table(title: str, rows: dict[str, Tally]) -> list[str]:
    lines = [f"| {title} | passed | total | % |", "|---|---:|---:|---:|"]
    for name, t in rows.items():
        lines.append(f"| `{name}` | {t.passed} | {t.total} | {t.percent:.1f} |")
    return lines


def write_report(path: Path, results: list[Result], corpus: Path) -> None:
    per_file, per_dir, total = summarize(results)
    root = display_root(results)
    per_file, per_dir = relative_rows(per_file, root), relative_rows(per_dir, root)
    lines = [
        "# Shardy conformance report", "",
        f"Corpus: `{corpus / root}`. Passed {total.passed} of {total.total} cases "
        f"({total.percent:.1f}%); {total.unsupported} unsupported cases count as failing.", "",
        "## Per directory", "", *markdown_table("directory", per_dir | {"TOTAL": total}), "",
        "## Per file", "", *markdown_table("file", per_file), "",
    ]
    path.write_text("\n".join(lines))


def write_results_json(path: Path, results: list[Result]) -> None:
    path.write_text(json.dumps({r.case.id: r.status for r in results}, indent=1) + "\n")


def print_failures(results: list[Result], limit: int, expected: list[str]) -> None:
    """Logs of failing cases; regressions first, since those are what a CI run must explain."""
    listed = set(expected)
    failures = [r for r in results if r.status == FAIL]
    failures.sort(key=lambda r: r.case.id not in listed)  # stable: corpus order otherwise
    failures = failures[:limit]
    for result in failures:
        print(f"\n===== FAIL: {result.case.id} =====\n{result.log}")


def case_sort_key(case_id: str) -> tuple[str, int]:
    path, _, line = case_id.rpartition(":")
    return (path, int(line)) if line.isdigit() else (case_id, 0)


def read_expected(path: Path) -> list[str]:
    if not path.exists():
        return []
    lines = (line.strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def write_expected(path: Path, ids: set[str]) -> None:
    path.write_text(EXPECTED_HEADER + "".join(f"{i}\n" for i in sorted(ids, key=case_sort_key)))


def check_ratchet(results: list[Result], expected: list[str], substring: str | None) -> int:
    """Prints regressions; returns the exit status (1 when any listed case fails)."""
    status = {r.case.id: r.status for r in results}
    # With --filter, listed cases outside the filter were not run and are not judged.
    in_scope = [i for i in expected if not substring or substring in i.rpartition(":")[0]]
    regressions = [i for i in in_scope if status.get(i) != PASS]
    for case_id in regressions:
        reason = "" if case_id in status else " (no such case in the corpus)"
        print(f"REGRESSION: {case_id}{reason}")
    new = sorted(set(i for i, s in status.items() if s == PASS) - set(expected), key=case_sort_key)
    if new:
        print(f"{len(new)} passing cases are not in the expected list yet "
              "(add them with --update-expected).")
    if regressions:
        print(f"Ratchet FAILED: {len(regressions)} of {len(in_scope)} expected cases regressed.")
        return 1
    print(f"Ratchet OK: all {len(in_scope)} expected cases pass.")
    return 0


# ----------------------------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", type=Path, help="shardscope-cli binary (stands in for sdy_opt)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="root of the Shardy test copy (default: %(default)s)")
    parser.add_argument("--filecheck", type=Path, default=Path("/usr/lib/llvm-14/bin/FileCheck"))
    parser.add_argument("--split-file", type=Path, default=Path("/usr/lib/llvm-14/bin/split-file"))
    parser.add_argument("--stablehlo-translate", type=Path, default=None,
                        help="interpreter for the executable tests; without it they are "
                             "counted as unsupported (failing)")
    parser.add_argument("--interpret", action="store_true",
                        help="run the executable tests with `shardscope-cli interpret` as "
                             "stablehlo-translate")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--filter", help="only files whose relative path contains this")
    parser.add_argument("--expected", type=Path, default=DEFAULT_EXPECTED,
                        help="ratchet list of case ids that must pass (default: %(default)s)")
    parser.add_argument("--update-expected", action="store_true",
                        help="add every passing case to the expected list (it never shrinks)")
    parser.add_argument("--report", type=Path, help="write a Markdown report here")
    parser.add_argument("--results-json", type=Path, help="write {case id: status} JSON here")
    parser.add_argument("--verbose-failures", type=int, default=0, metavar="N",
                        help="print the commands and output of the first N failing cases "
                             "(regressions first)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per command")
    parser.add_argument("--list-cases", action="store_true",
                        help="print the case ids and exit without running anything")
    parser.add_argument("--keep-temp", action="store_true",
                        help="keep the scratch directory (printed) for debugging")
    return parser.parse_args(argv)


def absolutize_paths(opts: argparse.Namespace) -> None:
    for name in ("cli", "corpus", "filecheck", "split_file", "stablehlo_translate",
                 "expected", "report", "results_json"):
        value = getattr(opts, name)
        if value is not None:
            setattr(opts, name, value.absolute())


def check_tools(opts: argparse.Namespace) -> str | None:
    """Returns an error message when a required tool is missing."""
    if opts.cli is None:
        return "--cli is required"
    if not (opts.cli.is_file() and os.access(opts.cli, os.X_OK)):
        return f"--cli {opts.cli} is not an executable file"
    if not (opts.filecheck.is_file() and os.access(opts.filecheck, os.X_OK)):
        return f"FileCheck not found at {opts.filecheck} (Debian: apt-get install llvm-14-tools)"
    return None


def execute(cases: list[Case], opts: argparse.Namespace) -> list[Result]:
    work_root = Path(tempfile.mkdtemp(prefix="shardscope-conformance-"))
    try:
        bin_dir = make_bin_dir(work_root, opts)
        shell = Shell(make_environment(bin_dir, opts), opts.timeout)
        runner = CaseRunner(shell, make_substituter(opts), work_root / "work",
                            run_interpreter_tests=opts.stablehlo_translate is not None)
        return run_all(cases, runner, opts.jobs)
    finally:
        if opts.keep_temp:
            print(f"scratch directory kept: {work_root}")
        else:
            shutil.rmtree(work_root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    absolutize_paths(opts)  # commands run in scratch directories, not in the caller's
    if not opts.corpus.is_dir():
        print(f"conformance corpus not found at {opts.corpus}, skipping")
        return 0
    cases = [case for test in discover(opts.corpus, opts.filter) for case in build_cases(test)]
    if opts.list_cases:
        print("\n".join(case.id for case in cases))
        return 0
    error = check_tools(opts)
    if error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    started = time.monotonic()
    results = execute(cases, opts)
    print_summary(results, opts.corpus, time.monotonic() - started)
    if opts.report:
        write_report(opts.report, results, opts.corpus)
    if opts.results_json:
        write_results_json(opts.results_json, results)
    expected = read_expected(opts.expected)
    print_failures(results, opts.verbose_failures, expected)
    status = check_ratchet(results, expected, opts.filter)
    if opts.update_expected:
        passing = {r.case.id for r in results if r.status == PASS}
        write_expected(opts.expected, set(expected) | passing)
        print(f"Updated {opts.expected}: {len(set(expected) | passing)} cases.")
    return status


if __name__ == "__main__":
    sys.exit(main())
