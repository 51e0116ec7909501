#!/usr/bin/env python3
"""How close any simulator can come to `redist validate`'s measurements on this machine.

Give it two or more `redist validate --json` outputs of the same cases (same --seed and --random),
each measured at its own time. A model cannot be closer to one measurement than the machine is to
itself: the best it can do is predict each case's typical time. For each run the ceiling predicts
every case by the geometric mean of the *other* runs' measured times and scores that prediction as
validate scores the simulator (|predicted - measured| / measured, median and 90th percentile,
interpolated as validate does). It also prints how far each pair of runs' measurements are apart,
and the simulator's own figures from each file, so that the three can be read side by side; then the
same for each set of cases validate reports apart (1-D, 2-D, pdgemr2d; within the cores, beyond them).
"""
import argparse
import itertools
import json
import math
import sys


def quantile(values, q):
    """validate's quantile: linear interpolation between the sorted values' neighbours."""
    v = sorted(values)
    at = q * (len(v) - 1)
    below = math.floor(at)
    above = min(below + 1, len(v) - 1)
    return v[below] + (at - below) * (v[above] - v[below])


def summary(errors):
    return quantile(errors, 0.5), quantile(errors, 0.9)


def load(path):
    """{case label: (measured, simulated)} of one validate run."""
    return load_with_sets(path)[0]


def load_with_sets(path):
    """({case label: (measured, simulated)}, {set name: [case label, ...]}) of one validate run. Files
    from before validate named each case's set hold 1-D cases only."""
    with open(path) as f:
        run = json.load(f)
    cases, cores = run["cases"], run.get("cores")
    sets = {}
    for c in cases:
        family = c.get("set", "1-D")
        sets.setdefault(family, []).append(c["case"])
        if cores is not None:
            sets.setdefault("within cores" if c["ranks"] <= cores else "beyond cores", []).append(c["case"])
    return load_cases(cases), sets


def load_cases(cases):
    out = {}
    for c in cases:
        if c["case"] in out:
            raise ValueError(f"case '{c['case']}' twice")
        measured, simulated = float(c["measured"]), float(c["simulated"])
        if not measured > 0 or not simulated > 0:
            raise ValueError(f"case '{c['case']}': times must be positive")
        out[c["case"]] = (measured, simulated)
    if not out:
        raise ValueError("no cases")
    return out


def ceiling(runs):
    """Per run: (median, p90) of the other runs' geometric mean against this run's measurements."""
    result = []
    for i, run in enumerate(runs):
        errors = []
        for case, (measured, _) in run.items():
            others = [r[case][0] for j, r in enumerate(runs) if j != i]
            typical = math.exp(sum(math.log(t) for t in others) / len(others))
            errors.append(abs(typical / measured - 1))
        result.append(summary(errors))
    return result


def simulator(run):
    return summary([abs(s / m - 1) for m, s in run.values()])


def apart(a, b):
    """(median, p90) of |a / b - 1| over the cases: two measurements of the same cases."""
    return summary([abs(a[case][0] / b[case][0] - 1) for case in a])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="redist validate --json outputs of the same cases")
    parser.add_argument("--max-error", type=float, default=0.10, help="median target (default 0.10)")
    parser.add_argument("--max-p90", type=float, default=0.30, help="90th percentile target (default 0.30)")
    args = parser.parse_args()
    if len(args.runs) < 2:
        print("validation_ceiling.py: give two or more runs of the same cases", file=sys.stderr)
        return 2
    runs, sets = [], {}
    for path in args.runs:
        try:
            cases, sets = load_with_sets(path)
            runs.append(cases)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"validation_ceiling.py: {path}: {' '.join(str(e).split())}", file=sys.stderr)
            return 1
        if set(runs[-1]) != set(runs[0]):
            print(f"validation_ceiling.py: {path}: not the same cases as {args.runs[0]}", file=sys.stderr)
            return 1
    print(f"{len(runs[0])} cases, {len(runs)} runs")
    for (i, a), (j, b) in itertools.combinations(enumerate(runs), 2):
        median, p90 = apart(a, b)
        print(f"measurements {i + 1} and {j + 1} apart: median {100 * median:.1f}%, 90th percentile {100 * p90:.1f}%")
    met = 0
    for i, ((c_median, c_p90), run) in enumerate(zip(ceiling(runs), runs)):
        s_median, s_p90 = simulator(run)
        ok = c_median <= args.max_error and c_p90 <= args.max_p90
        met += ok
        print(f"run {i + 1}: ceiling median {100 * c_median:.1f}%, 90th percentile {100 * c_p90:.1f}%"
              f"{' (meets the targets)' if ok else ''}; simulator {100 * s_median:.1f}%, {100 * s_p90:.1f}%")
    print(f"the ceiling meets median <= {100 * args.max_error:g}% and 90th percentile <= {100 * args.max_p90:g}% "
          f"in {met} of {len(runs)} runs")
    if len(sets) > 1:
        print("by set (ceiling; simulator), per run:")
        for name, labels in sets.items():
            subset = [{case: run[case] for case in labels} for run in runs]
            figures = []
            for (c_median, c_p90), run in zip(ceiling(subset), subset):
                s_median, s_p90 = simulator(run)
                figures.append(f"{100 * c_median:.1f}%/{100 * c_p90:.1f}%; {100 * s_median:.1f}%/{100 * s_p90:.1f}%")
            print(f"  {name} ({len(labels)} cases): " + " | ".join(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
