#!/usr/bin/env python3
"""Draws a communication schedule (the JSON of `redist schedule --json`, docs/ARCHITECTURE.md section 7) as
the paper's step table in colour: cell (p, q) takes the colour of the step in which source p sends
to destination q, next to the cost of each step (the length of its longest message).

usage: plot_schedule.py SCHEDULE.json OUT.png [--P P] [--Q Q] [--title TITLE]"""
import argparse
import json
import sys


def step_label(k):
    label = ""
    n = k + 1
    while n > 0:
        label = chr(ord("a") + (n - 1) % 26) + label
        n = (n - 1) // 26
    return label


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("schedule")
    parser.add_argument("out")
    parser.add_argument("--P", type=int, default=0, help="source processors (default: the largest src + 1)")
    parser.add_argument("--Q", type=int, default=0, help="destination processors (default: the largest dst + 1)")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        sys.exit("python3-matplotlib is not installed (scripts/install-deps.sh installs it)")

    with open(args.schedule) as f:
        schedule = json.load(f)
    steps = schedule["steps"]
    messages = [m for step in steps for m in step["messages"]]
    P = max(args.P, 1 + max((m["src"] for m in messages), default=0))
    Q = max(args.Q, 1 + max((m["dst"] for m in messages), default=0))
    grid = np.full((P, Q), np.nan)
    for k, step in enumerate(steps):
        for m in step["messages"]:
            grid[m["src"], m["dst"]] = k

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5), gridspec_kw={"width_ratios": [1, 1.2]})
    cmap = plt.get_cmap("tab20" if len(steps) <= 20 else "viridis").copy()
    cmap.set_bad("white")
    left.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0, vmax=max(len(steps) - 1, 1), aspect="auto",
                interpolation="nearest")
    if P * Q <= 40 * 40:
        left.set_xticks(range(Q))
        left.set_yticks(range(P))
        left.tick_params(labelsize=7)
        for (p, q), k in np.ndenumerate(grid):
            if not np.isnan(k):
                left.text(q, p, step_label(int(k)), ha="center", va="center", fontsize=7)
    left.set_xlabel("destination q")
    left.set_ylabel("source p")
    left.set_title("step of each message")

    costs = [step["cost"] for step in steps]
    right.bar(range(len(costs)), costs, color=[cmap(k / max(len(steps) - 1, 1)) for k in range(len(steps))])
    if len(costs) <= 40:
        right.set_xticks(range(len(costs)), [step_label(k) for k in range(len(costs))])
    right.yaxis.set_major_locator(MaxNLocator(integer=True))
    right.set_xlabel("step")
    right.set_ylabel("cost (longest message, elements per slice)")
    right.set_title(f"NS = {schedule['NS']}, TC = {schedule['TC']}")
    fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110, format="png")


if __name__ == "__main__":
    main()
