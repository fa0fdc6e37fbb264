#!/usr/bin/env python3
"""The include rules of the layers (STYLE.md 1-6, ARCHITECTURE.md), checked on the sources.

- Nothing in core/ includes Qt, widgets/ or app/.
- The front ends (widgets/, app/) reach the engine through core/session: none includes the
  modules that compute (core/analysis, core/propagation, core/partition, core/autodiff); the
  analyses they show come from `session::Program::analyses`.
  CLI commands not yet moved onto the session are listed in PENDING, by path; a new file, or a
  listed file that no longer needs the exception, fails the check (so the list only shrinks).

usage: check_layering.py REPO_ROOT
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)
ENGINE_INTERNALS = ("core/analysis/", "core/propagation/", "core/partition/", "core/autodiff/")
PENDING = set()


def sources(root, top):
    for folder, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if name.endswith((".h", ".cpp")):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, root), path


def includes(path):
    with open(path, encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def main():
    root = sys.argv[1]
    problems = []
    for rel, path in sources(root, "core"):
        for inc in includes(path):
            if inc.startswith(("Q", "widgets/", "app/")):
                problems.append(f"{rel}: includes {inc} (core is Qt-free and includes no front end)")
    needed = set()
    for top in ("widgets", "app"):
        for rel, path in sources(root, top):
            internal = [inc for inc in includes(path) if inc.startswith(ENGINE_INTERNALS)]
            if internal and rel in PENDING:
                needed.add(rel)
            elif internal:
                problems.append(f"{rel}: includes {internal[0]}; front ends reach the engine "
                                "through core/session")
    for rel in sorted(PENDING - needed):
        problems.append(f"{rel}: listed in PENDING but no longer includes engine internals "
                        "(remove it from the list)")
    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
