#!/usr/bin/env python3
"""Plots a scenario's CSV report (written by `redist replay`/`redist sweep`) in the style of the
papers' figures: time against the first swept parameter, one line per method and phase, simulated
values as solid lines and published values as hollow markers joined by dashes."""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIXED_COLUMNS = ("method", "phase", "simulated", "published", "unit")


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--x", default="")
    parser.add_argument("--unit", default="s")
    parser.add_argument("--title", default="")
    args = parser.parse_args()

    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot_scenario: no rows in " + args.csv)
    params = [c for c in rows[0] if c not in FIXED_COLUMNS]
    varying = [p for p in params if p != args.x and len({r[p] for r in rows}) > 1]

    # One series per (method, phase, other varying parameters).
    series = {}
    for i, row in enumerate(rows):
        label = " ".join([row["method"], row["phase"]] + [f"{p}={row[p]}" for p in varying])
        x = number(row[args.x]) if args.x else None
        series.setdefault(label, []).append((x if x is not None else i, row))

    many = len(series) > 8
    fig, ax = plt.subplots(figsize=(13 if many else 8, 6 if many else 5))
    xs_all = []
    for k, (label, points) in enumerate(series.items()):
        points.sort(key=lambda p: p[0])
        color = f"C{k % 10}"
        xs = [p[0] for p in points]
        xs_all += xs
        ax.plot(xs, [float(p[1]["simulated"]) for p in points], "-o", color=color, markersize=3, label=label)
        published = [(p[0], float(p[1]["published"])) for p in points if p[1]["published"]]
        if published:
            ax.plot(*zip(*published), "--s", color=color, markerfacecolor="none", markersize=5,
                    label=label + " (published)")
    if xs_all and min(xs_all) > 0 and max(xs_all) / min(xs_all) > 20:
        ax.set_xscale("log")
        ys = [float(p[1]["simulated"]) for pts in series.values() for p in pts]
        if ys and min(ys) > 0 and max(ys) / min(ys) > 100:
            ax.set_yscale("log")
    ax.set_xlabel(args.x or "run")
    ax.set_ylabel(f"time ({args.unit})")
    ax.set_title(args.title)
    ax.grid(True, alpha=0.3)
    if many:  # beside the axes, in columns, so that it hides no curve
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), ncol=2)
    else:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110, format="png")


if __name__ == "__main__":
    main()
