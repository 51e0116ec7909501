#!/usr/bin/env python3
"""Fails when the tree reads as a diary instead of a record:

* a source file (C++, C, Python, CMake, shell, YAML, XML) or a document names a tracker issue by
  its number, or the machine it was written on (a virtual machine by its core count or as "this
  one"): a comment names the concept instead;
* a heading of docs/ (a line starting with #) carries a date: docs/ states what holds now;
* a document of docs/ carries a full date (day, month and year, or ISO) anywhere but in a table row
  of docs/MEASUREMENTS.md, whose "date" column says when each figure was measured.

    scripts/check_record_not_diary.py [ROOT]     # ROOT: the repository (default: this script's parent)
    scripts/check_record_not_diary.py --self-test  # the checks catch what they are meant to
"""
import pathlib
import re
import sys
import tempfile

SUFFIXES = {".cpp", ".hpp", ".h", ".c", ".py", ".cmake", ".md", ".yaml", ".yml", ".xml", ".sh"}
NAMES = {"CMakeLists.txt"}
SKIPPED = {"build", ".git", "__pycache__", "shared", "node_modules"}

ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\d")
MACHINE = re.compile(r"\bthis (?:\d+-core )?VM\b|\b\d+-core VM\b|\bthis \d+-core\b")
MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
         r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")
FULL_DATE = re.compile(r"\b\d{1,2} " + MONTH + r" \d{4}\b|\b\d{4}-[01]\d-[0-3]\d\b")
ANY_DATE = re.compile(FULL_DATE.pattern + r"|\b" + MONTH + r" \d{4}\b")
HEADING = re.compile(r"^#{1,6}\s")


def files_under(root: pathlib.Path):
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(part in SKIPPED or part.startswith("build-") for part in parts) or not path.is_file():
            continue
        if path.suffix in SUFFIXES or path.name in NAMES:
            yield path


def problems(root: pathlib.Path) -> list:
    found = []
    this_script = pathlib.Path(__file__).resolve()
    for path in files_under(root):
        if path.resolve() == this_script:
            continue
        relative = path.relative_to(root)
        in_docs = relative.parts[0] == "docs" and path.suffix == ".md"
        figures_page = relative.as_posix() == "docs/MEASUREMENTS.md"
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            where = f"{relative}:{number}"
            if ISSUE.search(line):
                found.append(f"{where}: names an issue by its number (name the concept): {line.strip()}")
            if MACHINE.search(line):
                found.append(f"{where}: names the machine it was written on (describe it by kind): {line.strip()}")
            if not in_docs:
                continue
            if HEADING.match(line) and ANY_DATE.search(line):
                found.append(f"{where}: a dated heading (docs/ states what holds now): {line.strip()}")
            elif FULL_DATE.search(line) and not (figures_page and line.lstrip().startswith("|")):
                found.append(f"{where}: a date outside the figures' date column: {line.strip()}")
    return found


def self_test() -> int:
    bad = {
        # The diary lines are put together here, so that this file itself names no issue or machine.
        "algorithms/a.hpp": "// Planned as asked in " + "iss" + "ue 18, item 2.\n",
        "sim/b.cpp": "// measured on " + "this " + "V" + "M\n",
        "docs/GUIDE.md": "# Guide\n\n## Kept buffers (" + "29 Nov 2026)\n",
        "docs/OTHER.md": "Changed on " + "27 Nov 2026 to a new format.\n",
        "docs/MEASUREMENTS.md": "# M\n\nmeasured on " + "2026-11-29 outside a table\n",
    }
    good = {
        "algorithms/c.hpp": "// Process relabelling: which rank each destination processor runs on.\n",
        "docs/MEASUREMENTS.md": "# M\n\n| figure | date |\n|---|---|\n| 1.2 s | " + "29 Nov 2026 |\n",
        "docs/papers.md": "Its latest reference is from " + "April 2004.\n",
    }
    with tempfile.TemporaryDirectory() as directory:
        root = pathlib.Path(directory)
        for name, text in good.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        if problems(root):
            print("self-test: a clean tree was refused:\n  " + "\n  ".join(problems(root)), file=sys.stderr)
            return 1
        for name, text in bad.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        caught = {p.split(":")[0] for p in problems(root)}
        missed = sorted(set(bad) - caught)
        if missed:
            print("self-test: not caught: " + ", ".join(missed), file=sys.stderr)
            return 1
    print(f"self-test: {len(bad)} diary lines caught, {len(good)} clean files passed")
    return 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        return self_test()
    root = (pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent).resolve()
    found = problems(root)
    if found:
        print("a record, not a diary:\n  " + "\n  ".join(found), file=sys.stderr)
        return 1
    print("no issue numbers, machine names or dated headings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
