#!/usr/bin/env python3
"""Fails when the folders of algorithms/redist/ import each other in a cycle.

A folder imports another when one of its files has `#include "redist/<other>/..."`. The folders
must form a directed acyclic graph (core at the bottom, redistribute and symmetric at the top), so
that each can be read, tested and reused without the ones above it.

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


def main() -> int:
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    graph = folder_graph(root / "algorithms" / "redist")
    cycle = find_cycle(graph)
    if cycle:
        print("folder import cycle in algorithms/redist: " + " -> ".join(cycle), file=sys.stderr)
        return 1
    for folder, imports in graph.items():
        print(f"{folder} -> {', '.join(imports) if imports else '(nothing)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
