#!/usr/bin/env python3
"""Plots a scenario's reports (written by `redist replay`/`redist sweep`) as small multiples: one
panel per phase and per value of the other swept parameters (the x axis is the first numeric one),
one colour per method, simulated values as lines and published values as markers of the same
colour; then one panel per ratio of methods the scenario reports (from the JSON report), with the
published range shaded when one is given (--ratio-range). A sweep whose swept parameters are all
names (2-D grids and blocks: 4x4, 64x64) and whose small multiples would be too many to read is drawn
as heatmaps instead: one per phase and method, the first half of the swept parameters down, the rest
across, the simulated value as colour (logarithmic) and written in each cell."""
import argparse
import csv
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

FIXED_COLUMNS = ("method", "phase", "simulated", "published", "unit")
MAX_COLUMNS = 5
MAX_PANELS = 12  # more small multiples than this, of parameters without a number axis: heatmaps


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def unique(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def spans_decades(values, factor):
    positive = [v for v in values if v is not None and v > 0]
    return len(positive) == len(values) and positive and max(positive) / min(positive) > factor


def group_label(names, values):
    return ", ".join(f"{n}={v}" for n, v in zip(names, values))


def set_scales(ax, xs, ys):
    if spans_decades(xs, 20):
        ax.set_xscale("log", base=2 if all(math.log2(x).is_integer() for x in xs) else 10)
    if spans_decades(ys, 30):
        ax.set_yscale("log")


def method_panels(rows, args):
    """[(title, [(method, [(x, simulated, published)])])] in phase-major order, and the grid shape."""
    params = [c for c in rows[0] if c not in FIXED_COLUMNS]
    others = [p for p in params if p != args.x and len({r[p] for r in rows}) > 1]
    phases = unique(r["phase"] for r in rows)
    methods = args.method or unique(r["method"] for r in rows)
    groups = unique(tuple(r[p] for p in others) for r in rows)
    panels = []
    for group in groups:
        for phase in phases:
            series = []
            for method in methods:
                points = []
                for i, r in enumerate(rows):
                    if r["phase"] != phase or r["method"] != method or tuple(r[p] for p in others) != group:
                        continue
                    x = number(r[args.x]) if args.x else None
                    points.append((x if x is not None else i, float(r["simulated"]), number(r["published"])))
                if points:
                    series.append((method, sorted(points, key=lambda p: p[0])))
            title = phase + (" — " + group_label(others, group) if others else "")
            panels.append((title, series))
    # A row per group when the phases fit in a row; otherwise the panels wrap.
    columns = len(phases) if 1 < len(groups) and 2 <= len(phases) <= MAX_COLUMNS else min(MAX_COLUMNS, len(panels))
    return panels, methods, columns


def swept(rows):
    return [c for c in rows[0] if c not in FIXED_COLUMNS and len({r[c] for r in rows}) > 1]


def wants_heatmaps(rows, panels, args):
    """No number to put on an axis, and too many panels to read."""
    params = swept(rows)
    numeric = args.x or any(all(number(r[p]) is not None for r in rows) for p in params)
    return not numeric and len(params) >= 2 and len(panels) > MAX_PANELS


def draw_heatmaps(rows, methods, args):
    params = swept(rows)
    down, across = params[: len(params) // 2], params[len(params) // 2:]
    row_keys = unique(tuple(r[p] for p in down) for r in rows)
    col_keys = unique(tuple(r[p] for p in across) for r in rows)
    phases = unique(r["phase"] for r in rows)
    maps = [(phase, method) for phase in phases for method in methods]
    fig, axes = plt.subplots(len(maps), 1, figsize=(0.55 * len(col_keys) + 2.5, 0.32 * len(row_keys) * len(maps) +
                                                     1.3 * len(maps) + 0.5), squeeze=False)
    for ax, (phase, method) in zip(axes.flat, maps):
        grid = [[math.nan] * len(col_keys) for _ in row_keys]
        for r in rows:
            if r["phase"] == phase and r["method"] == method:
                grid[row_keys.index(tuple(r[p] for p in down))][col_keys.index(tuple(r[p] for p in across))] = \
                    float(r["simulated"])
        values = [v for line in grid for v in line if v > 0]
        image = ax.imshow(grid, aspect="auto", cmap="viridis",
                          norm=matplotlib.colors.LogNorm(min(values), max(values)) if values else None)
        for i, line in enumerate(grid):
            for j, v in enumerate(line):
                if not math.isnan(v):
                    ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=5.5, color="white")
        ax.set_xticks(range(len(col_keys)), [" ".join(k) for k in col_keys], rotation=90, fontsize=6.5)
        ax.set_yticks(range(len(row_keys)), [" ".join(k) for k in row_keys], fontsize=6.5)
        ax.set_xlabel(" ".join(across), fontsize=8)
        ax.set_ylabel(" ".join(down), fontsize=8)
        ax.set_title(f"{phase}, {method} ({args.unit})", fontsize=9)
        fig.colorbar(image, ax=ax, fraction=0.03, pad=0.01).ax.tick_params(labelsize=6)
    fig.suptitle(args.title, fontsize=11)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100, format="png")


def parse_ranges(specs):
    ranges = {}
    for key, low, high in specs or []:
        ranges[key] = (float(low), float(high))
    return ranges


def ratio_panels(report, args):
    """[(title, published text, range or None, [(group label, [(x, ratio)])])]."""
    ranges = parse_ranges(args.ratio_range)
    out = []
    for ratio in report.get("ratios", []):
        key = f"{ratio['numerator']}/{ratio['denominator']}/{ratio['phase']}"
        rows = [r for r in ratio["rows"] if r["simulated"] is not None]
        if not rows:
            continue
        names = [n for n in rows[0]["params"] if n != args.x and len({json.dumps(r["params"][n]) for r in rows}) > 1]
        series = {}
        for i, r in enumerate(rows):
            x = r["params"].get(args.x, i) if args.x else i
            label = group_label(names, [r["params"][n] for n in names])
            series.setdefault(label, []).append((x, r["simulated"]))
        title = f"{ratio['numerator']} / {ratio['denominator']} ({ratio['phase']})"
        out.append((title, ratio.get("published", ""), ranges.get(key), list(series.items())))
    return out


def draw_methods(ax, title, series, colours, args):
    xs, ys = [], []
    for k, (method, points) in enumerate(series):
        colour = colours[method]
        px = [p[0] for p in points]
        # Earlier methods drawn wider, so that a method hidden under another one still shows.
        width = max(1.2, 3.4 - 0.8 * k)
        ax.plot(px, [p[1] for p in points], "-", color=colour, linewidth=width, marker=".", markersize=4, alpha=0.85)
        published = [(p[0], p[2]) for p in points if p[2] is not None]
        if published:
            ax.plot(*zip(*published), linestyle="none", marker="o", markersize=6, markerfacecolor="none",
                    markeredgecolor=colour, markeredgewidth=1.5)
        xs += px
        ys += [p[1] for p in points] + [p[1] for p in published]
    set_scales(ax, xs, ys)
    ax.set_title(title, fontsize=9)
    ax.grid(True, alpha=0.3, which="both")
    ax.tick_params(labelsize=7)


def draw_ratio(ax, title, published, bounds, series, args):
    xs = []
    for k, (label, points) in enumerate(series):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], "-o", color=f"C{k % 10}", markersize=3,
                label=label or "simulated")
        xs += [p[0] for p in points]
    if bounds:
        ax.axhspan(bounds[0], bounds[1], color="0.6", alpha=0.35, label="published range")
    ax.axhline(1.0, color="0.3", linewidth=0.8, linestyle=":")
    if spans_decades(xs, 20):
        ax.set_xscale("log")
    ax.set_title(title, fontsize=9)
    if published:
        ax.text(0.02, 0.02, "paper: " + published, transform=ax.transAxes, fontsize=6.5, va="bottom", wrap=True)
    ax.grid(True, alpha=0.3)
    ax.tick_params(labelsize=7)
    if len(series) > 1 or bounds:
        ax.legend(fontsize=6.5, loc="best")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--json", default="", help="the JSON report, for the scenario's ratios")
    parser.add_argument("--out", required=True)
    parser.add_argument("--x", default="")
    parser.add_argument("--unit", default="s")
    parser.add_argument("--title", default="")
    parser.add_argument("--method", action="append", help="methods in the scenario's order (repeat)")
    parser.add_argument("--ratio-range", nargs=3, action="append", metavar=("NUM/DEN/PHASE", "LOW", "HIGH"),
                        help="shade the published range of a ratio")
    args = parser.parse_args()

    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot_scenario: no rows in " + args.csv)
    report = {}
    if args.json:
        with open(args.json) as f:
            report = json.load(f)

    panels, methods, columns = method_panels(rows, args)
    if wants_heatmaps(rows, panels, args):
        draw_heatmaps(rows, methods, args)
        return
    ratios = ratio_panels(report, args)
    # Method panels first, row by row; ratio panels on the rows after them, unless all fit in one row.
    if len(panels) + len(ratios) <= MAX_COLUMNS:
        columns = len(panels) + len(ratios)
        slots = list(range(columns))
    else:
        columns = max(columns, min(MAX_COLUMNS, len(ratios)))
        first_ratio_row = math.ceil(len(panels) / columns)
        slots = list(range(len(panels))) + [first_ratio_row * columns + k for k in range(len(ratios))]
    grid_rows = slots[-1] // columns + 1
    fig, axes = plt.subplots(grid_rows, columns, figsize=(3.3 * columns + 0.5, 2.6 * grid_rows + 0.6), squeeze=False)
    for ax in axes.flat:
        ax.set_visible(False)
    colours = {m: f"C{k % 10}" for k, m in enumerate(methods)}
    for k, (title, series) in enumerate(panels):
        ax = axes[slots[k] // columns][slots[k] % columns]
        ax.set_visible(True)
        draw_methods(ax, title, series, colours, args)
        if slots[k] % columns == 0:
            ax.set_ylabel("elements" if args.unit == "elements" else f"time ({args.unit})", fontsize=8)
        ax.set_xlabel(args.x or "run", fontsize=8)
    for k, (title, published, bounds, series) in enumerate(ratios):
        slot = slots[len(panels) + k]
        ax = axes[slot // columns][slot % columns]
        ax.set_visible(True)
        draw_ratio(ax, title, published, bounds, series, args)
        ax.set_xlabel(args.x or "run", fontsize=8)
        ax.set_ylabel("ratio", fontsize=8)

    handles = [Line2D([], [], color=colours[m], linewidth=2, label=m) for m in methods]
    handles.append(Line2D([], [], color="0.2", marker=".", label="simulated (line)"))
    if any(r["published"] for r in rows):
        handles.append(Line2D([], [], color="0.2", linestyle="none", marker="o", markerfacecolor="none",
                              label="published (markers)"))
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 1.0 - 0.3 / fig.get_figheight()))
    fig.suptitle(args.title, fontsize=11, y=1.0 - 0.05 / fig.get_figheight(), va="top")
    width, height = fig.get_size_inches()
    fig.subplots_adjust(left=0.65 / width, right=1 - 0.15 / width, bottom=0.5 / height, top=1 - 0.85 / height,
                        wspace=0.28, hspace=0.55 * 2.6 / 2.6)
    fig.savefig(args.out, dpi=100, format="png")


if __name__ == "__main__":
    main()
