#!/usr/bin/env python3
"""Plots the fidelity of a multi-scenario replay: simulated against published for every published
cell of every scenario (the JSON reports beside summary.json), log-log, with the y = x line and
factor-of-2 bands; one colour per paper, filled markers for train scenarios, hollow for test ones,
crosses for cells of claims-only scenarios. Units are each scenario's own (the ratio is what counts)."""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

MARKERS = {"train": dict(marker="o", fill=True), "test": dict(marker="o", fill=False),
           "claims": dict(marker="x", fill=True)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--summary", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.summary) as f:
        summary = json.load(f)
    folder = os.path.dirname(os.path.abspath(args.summary))

    papers = sorted({s["paper"] for s in summary["scenarios"]})
    colours = {p: f"C{k % 10}" for k, p in enumerate(papers)}
    fig, ax = plt.subplots(figsize=(7.5, 6.5))
    low, high = float("inf"), 0.0
    seen = set()
    for s in summary["scenarios"]:
        with open(os.path.join(folder, s["scenario"] + ".json")) as f:
            report = json.load(f)
        cells = [(r["published"], r["simulated"]) for r in report["records"]
                 if r["published"] is not None and r["published"] > 0 and r["simulated"] > 0]
        if not cells:
            continue
        seen.add((s["paper"], s["role"]))
        style = MARKERS.get(s["role"], MARKERS["test"])
        colour = colours[s["paper"]]
        xs, ys = zip(*cells)
        if style["marker"] == "x":
            ax.scatter(xs, ys, s=18, marker="x", linewidths=1.0, color=colour, alpha=0.8)
        else:
            ax.scatter(xs, ys, s=18, marker="o", linewidths=1.0, facecolors=colour if style["fill"] else "none",
                       edgecolors=colour, alpha=0.8)
        low, high = min(low, *xs, *ys), max(high, *xs, *ys)
    if high == 0:
        ax.text(0.5, 0.5, "no published cell", transform=ax.transAxes, ha="center")
        low, high = 0.1, 10.0
    low, high = low / 2, high * 2
    ax.plot([low, high], [low, high], "-", color="0.2", linewidth=1, label="y = x")
    ax.plot([low, high], [2 * low, 2 * high], ":", color="0.5", linewidth=0.8, label="factor 2")
    ax.plot([low, high], [low / 2, high / 2], ":", color="0.5", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_aspect("equal")
    ax.set_xlabel("published (each scenario's unit)")
    ax.set_ylabel("simulated (same unit)")
    ax.set_title("Simulated against published, every published cell")
    ax.grid(True, alpha=0.3, which="both")
    handles = [Line2D([], [], color="0.2", label="y = x"), Line2D([], [], color="0.5", linestyle=":", label="factor 2")]
    for paper in papers:
        if any(p == paper for p, _ in seen):
            handles.append(Line2D([], [], color=colours[paper], marker="o", linestyle="none", label=f"paper {paper}"))
    for role in ("train", "test", "claims"):
        if any(r == role for _, r in seen):
            style = MARKERS[role]
            handles.append(Line2D([], [], color="0.2", marker=style["marker"], linestyle="none",
                                  markerfacecolor="0.2" if style["fill"] else "none", label=role))
    ax.legend(handles=handles, fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100, format="png")


if __name__ == "__main__":
    sys.exit(main())
