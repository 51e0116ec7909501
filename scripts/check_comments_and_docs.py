#!/usr/bin/env python3
"""Fails when the tree keeps a diary where it should name concepts:

* a source file (C++, C, Python, CMake, shell) names an issue by number ("issue 18") or a machine
  ("this VM", "this 2-core machine"): a comment names the concept it explains;
* a document in docs/ has a dated heading: measured figures carry their date in a column of
  docs/MEASUREMENTS.md's tables, nowhere else.

    scripts/check_comments_and_docs.py [ROOT]     # ROOT: the repository (default: this script's parent)
"""
import pathlib
import re
import sys

SOURCES = (".cpp", ".hpp", ".h", ".c", ".py", ".cmake", ".sh")
SKIPPED = {"build", ".git", "shared"}
ISSUE = re.compile(r"\b[Ii]ssue (\d+|\")")
MACHINE = re.compile(r"\bthis (2-core )?(VM|machine's VM)\b|\b2-core VM\b")
MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
DATED_HEADING = re.compile(rf"^#+ .*(\b\d{{1,2}} ({MONTHS})[a-z]* \d{{4}}\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b)")


def tracked_files(root: pathlib.Path):
    for path in root.rglob("*"):
        if path.is_file() and not SKIPPED.intersection(path.relative_to(root).parts):
            yield path


def main() -> int:
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    found = []
    for path in tracked_files(root):
        relative = path.relative_to(root)
        if path.suffix in SOURCES or path.name == "CMakeLists.txt":
            if path.resolve() == pathlib.Path(__file__).resolve():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if ISSUE.search(line) or MACHINE.search(line):
                    found.append(f"{relative}:{number}: names an issue or a machine: {line.strip()}")
        elif relative.parts[0] == "docs" and path.suffix == ".md":
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if DATED_HEADING.search(line):
                    found.append(f"{relative}:{number}: a dated heading: {line.strip()}")
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
