#!/usr/bin/env python3
"""The best method-ordering agreement any model can reach on a scenario's published table, if the
order it gives the methods of a phase changes at most K times along the size axis N.

A row is one set of parameters and one phase; it agrees when the simulated values order every pair
of methods the published values order (pairs printed as equal impose nothing), as `redist replay`
counts it. A model whose order flips back and forth with N reproduces the scatter of the
measurements rather than a mechanism, so the rows that only such a model orders right are out of
reach of an honest one. Prints `SCENARIO: A of R rows (P%) at most, order changing at most K
times along N`, or nothing to say when the published values order no row.
"""
import argparse
import itertools
import sys

import yaml


def ordered_pairs(values):
    """The (faster, slower) pairs of methods the published values order."""
    return [(a, b) for a in values for b in values if values[a] < values[b]]


def agrees(order, pairs):
    place = {m: i for i, m in enumerate(order)}
    return all(place[a] < place[b] for a, b in pairs)


def best_along(rows, methods, changes):
    """Most rows (a list of ordered-pair lists, by increasing N) one order per stretch can agree with,
    with at most `changes` changes of order between stretches."""
    orders = list(itertools.permutations(methods))
    # best[c][o]: most rows so far, ending with order o after c changes
    best = [[0] * len(orders) for _ in range(changes + 1)]
    for pairs in rows:
        nxt = [[0] * len(orders) for _ in range(changes + 1)]
        for c in range(changes + 1):
            for o, order in enumerate(orders):
                stay = best[c][o]
                switch = max(best[c - 1]) if c > 0 else -1
                nxt[c][o] = max(stay, switch) + agrees(order, pairs)
        best = nxt
    return max(max(b) for b in best)


def ceiling(scenario, changes):
    """(rows a model can order right at most, rows the published values order)."""
    groups = {}  # (other parameters, phase) -> {N: {method: value}}
    for cell in scenario.get("published", []):
        params = dict(cell["params"])
        n = params.pop("N", None)
        rest = tuple(sorted((k, str(v)) for k, v in params.items()))
        for method, phases in cell["values"].items():
            for phase, value in phases.items():
                groups.setdefault((rest, phase), {}).setdefault(str(n), {})[method] = value
    reachable = ordered_rows = 0
    for by_n in groups.values():
        sizes = sorted(by_n, key=lambda n: float(n) if n != "None" else 0.0)
        rows = [ordered_pairs(by_n[n]) for n in sizes if len(by_n[n]) > 1]
        rows = [pairs for pairs in rows if pairs]
        if not rows:
            continue
        methods = sorted({m for n in sizes for m in by_n[n]})
        ordered_rows += len(rows)
        reachable += best_along(rows, methods, changes)
    return reachable, ordered_rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="+", help="scenario YAML files")
    parser.add_argument("--changes", type=int, default=1, help="changes of order allowed along N (default 1)")
    args = parser.parse_args()
    if args.changes < 0:
        print("ordering_ceiling.py: --changes must be 0 or more", file=sys.stderr)
        return 2
    for path in args.scenarios:
        try:
            with open(path) as f:
                scenario = yaml.safe_load(f)
            reachable, rows = ceiling(scenario, args.changes)
        except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as e:
            reason = " ".join(str(e).split())  # one line, as YAML's messages span several
            print(f"ordering_ceiling.py: {path}: {reason}", file=sys.stderr)
            return 1
        if rows:
            print(f"{scenario.get('scenario', path)}: {reachable} of {rows} rows ({100 * reachable / rows:.1f}%) at most, "
                  f"order changing at most {args.changes} times along N")
    return 0


if __name__ == "__main__":
    sys.exit(main())
