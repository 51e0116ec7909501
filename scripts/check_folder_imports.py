#!/usr/bin/env python3
"""Fails when the folders of the source tree break their layering:

* the folders of algorithms/redist/ import each other in a cycle. A folder imports another when one
  of its files has `#include "redist/<other>/..."`. The folders must form a directed acyclic graph
  (core at the bottom, redistribute and symmetric at the top), so that each can be read, tested and
  reused without the ones above it;
* a file of algorithms/ includes a header of a library above it (os, command_line, sim, experiments,
  reports, calibration, mpi, measurements, scalapack): algorithms/ stays pure;
* a library above algorithms/ includes a header of one above it. From the bottom up: os; the
  scenarios (redist_scenarios: the sources of experiments/ that its add_library names, and the
  headers they include); reports; sim (the SimGrid binding: nothing of the experiments run on it);
  the experiments run on the simulator; calibration. So sim/ includes nothing of experiments/,
  reports/ or calibration/, reports/ only the scenario headers of experiments/, and the scenario
  headers nothing of reports/ or sim/;
* a library, test or benchmark compiles or includes a file of a front door — cli/, the `redist`
  command, mpi/cli/, the `redist-mpi` program, or python/, the Python module's bindings: a
  CMakeLists.txt outside the folder names a source there, or a source outside it includes one by
  a relative path. Tests link the libraries instead (and test the Python module through Python).

    scripts/check_folder_imports.py [ROOT]     # ROOT: the repository (default: this script's parent)
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"redist/([A-Za-z0-9_]+)/', re.MULTILINE)


def folder_graph(redist: pathlib.Path) -> dict:
    graph = {}
    for folder in sorted(p for p in redist.iterdir() if p.is_dir()):
        imports = set()
        for source in folder.rglob("*"):
            if source.suffix in (".hpp", ".cpp", ".h"):
                imports.update(INCLUDE.findall(source.read_text(encoding="utf-8")))
        graph[folder.name] = sorted(imports - {folder.name})
    return graph


def find_cycle(graph: dict):
    """One cycle as a list of folders (first == last), or None."""
    state = {}  # folder -> "open" while on the path, "done" after

    def visit(node, path):
        state[node] = "open"
        path.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt, path)
                if cycle:
                    return cycle
        path.pop()
        state[node] = "done"
        return None

    for node in graph:
        if node not in state:
            cycle = visit(node, [])
            if cycle:
                return cycle
    return None


SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".c")
SKIPPED = {"build", ".git", "__pycache__"}
CMAKE_SOURCE = re.compile(r'[A-Za-z0-9_${}./+-]+\.(?:cpp|cc|c|hpp|h)\b')
QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def files_under(root: pathlib.Path, names=None, suffixes=None):
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(part in SKIPPED or part.startswith("build-") for part in parts) or not path.is_file():
            continue
        if (names and path.name in names) or (suffixes and path.suffix in suffixes):
            yield path


def upward_includes(root: pathlib.Path) -> list:
    """Includes of algorithms/ files that name a folder of redist/ outside algorithms/redist/."""
    own = {p.name for p in (root / "algorithms" / "redist").iterdir() if p.is_dir()}
    found = []
    for source in files_under(root / "algorithms", suffixes=SOURCE_SUFFIXES):
        for folder in INCLUDE.findall(source.read_text(encoding="utf-8")):
            if folder not in own:
                found.append(f"{source.relative_to(root)} includes redist/{folder}/")
    return found


def within(path: pathlib.Path, folder: pathlib.Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


FRONT_DOORS = ("cli", "mpi/cli", "python")


def library_sources(cmake: pathlib.Path, library: str) -> list:
    """The sources an add_library(LIBRARY ...) of `cmake` names, relative to its folder."""
    text = re.sub(r"#.*", "", cmake.read_text(encoding="utf-8"))
    match = re.search(r"add_library\(\s*" + re.escape(library) + r"\s+([^)]*)\)", text)
    return match.group(1).split() if match else []


def scenario_headers(root: pathlib.Path) -> set:
    """The headers of experiments/ that redist_scenarios holds: those its sources include, transitively."""
    folder = root / "experiments"
    own = "redist/experiments/"
    pending = [folder / source for source in library_sources(folder / "CMakeLists.txt", "redist_scenarios")]
    seen = set()
    while pending:
        source = pending.pop()
        for name in QUOTED_INCLUDE.findall(source.read_text(encoding="utf-8")):
            if name.startswith(own) and name not in seen:
                seen.add(name)
                pending.append(folder / name)
    return seen


def layer_breaks(root: pathlib.Path) -> list:
    """Includes that point up the layers of the libraries above algorithms/ (see the docstring)."""
    scenarios = scenario_headers(root)
    found = []

    def check(files, forbidden, allowed_experiments=None):
        for source in files:
            for name in QUOTED_INCLUDE.findall(source.read_text(encoding="utf-8")):
                folder = name.split("/")[1] if name.startswith("redist/") and name.count("/") >= 2 else None
                if folder in forbidden or (folder == "experiments" and allowed_experiments is not None
                                           and name not in allowed_experiments):
                    found.append(f"{source.relative_to(root)} includes {name}")

    check(files_under(root / "os", suffixes=SOURCE_SUFFIXES),
          {"command_line", "sim", "experiments", "reports", "calibration", "mpi", "measurements", "scalapack"})
    check(files_under(root / "sim", suffixes=SOURCE_SUFFIXES),
          {"experiments", "reports", "calibration", "mpi", "measurements", "scalapack"})
    check(files_under(root / "reports", suffixes=SOURCE_SUFFIXES),
          {"sim", "calibration", "mpi", "measurements", "scalapack"}, scenarios)
    check([root / "experiments" / name for name in sorted(scenarios)] +
          [root / "experiments" / source
           for source in library_sources(root / "experiments" / "CMakeLists.txt", "redist_scenarios")],
          {"sim", "reports", "calibration", "mpi", "measurements", "scalapack"})
    check(files_under(root / "mpi" / "redist" / "measurements", suffixes=SOURCE_SUFFIXES),
          {"sim", "experiments", "reports", "calibration", "scalapack"})
    return sorted(set(found))


def front_door_sources_used_elsewhere(root: pathlib.Path, door: str) -> list:
    """CMake files outside the folder `door` naming a source of it, and sources outside it including one."""
    cli = root / door
    found = []
    for cmake in files_under(root, names={"CMakeLists.txt"}):
        if within(cmake, cli):
            continue
        text = re.sub(r"#.*", "", cmake.read_text(encoding="utf-8"))
        for token in CMAKE_SOURCE.findall(text):
            path = token.replace("${PROJECT_SOURCE_DIR}", str(root)).replace("${CMAKE_SOURCE_DIR}", str(root))
            path = path.replace("${CMAKE_CURRENT_SOURCE_DIR}", str(cmake.parent))
            if "$" not in path and within(cmake.parent / path, cli):
                found.append(f"{cmake.relative_to(root)} compiles {token}")
    for source in files_under(root, suffixes=SOURCE_SUFFIXES):
        if within(source, cli):
            continue
        for name in QUOTED_INCLUDE.findall(source.read_text(encoding="utf-8", errors="replace")):
            target = source.parent / name
            if target.is_file() and within(target, cli):
                found.append(f"{source.relative_to(root)} includes {name}")
    return found


def main() -> int:
    root = (pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent).resolve()
    graph = folder_graph(root / "algorithms" / "redist")
    cycle = find_cycle(graph)
    if cycle:
        print("folder import cycle in algorithms/redist: " + " -> ".join(cycle), file=sys.stderr)
        return 1
    upward = upward_includes(root)
    if upward:
        print("algorithms/ includes a library above it:\n  " + "\n  ".join(upward), file=sys.stderr)
        return 1
    layers = layer_breaks(root)
    if layers:
        print("a library includes a header of a library above it:\n  " + "\n  ".join(layers), file=sys.stderr)
        return 1
    for door in FRONT_DOORS:
        used = front_door_sources_used_elsewhere(root, door)
        if used:
            print(f"{door}/ is a front door (the redist command, the Python module); link a library instead:\n  "
                  + "\n  ".join(used), file=sys.stderr)
            return 1
    for folder, imports in graph.items():
        print(f"{folder} -> {', '.join(imports) if imports else '(nothing)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
