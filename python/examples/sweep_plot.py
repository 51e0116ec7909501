"""A small sweep of the simulator, as records, plotted with matplotlib: the simulated time of a 1-D
redistribution CYCLIC(r)/8 -> CYCLIC(5)/8 on the IBM SP2 model for each indexing method, by r.

    python3 python/examples/sweep_plot.py [out.png]
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import redist  # noqa: E402

platform = redist.platform_file("sp2")
records = []
for r in (1, 2, 3, 5, 8, 13, 21):
    for indexing in ("naive", "pitfalls", "prylli"):
        records += redist.simulate(platform=platform, P=8, Q=8, r=r, s=5, N=200000, indexing=indexing)

figure, axes = plt.subplots()
for indexing in ("naive", "pitfalls", "prylli"):
    rows = [rec for rec in records if rec["indexing"] == indexing]
    axes.plot([rec["r"] for rec in rows], [rec["phases.total"] * 1e3 for rec in rows], marker="o", label=indexing)
axes.set_xlabel("source block size r")
axes.set_ylabel("simulated total (ms)")
axes.set_title("CYCLIC(r)/8 -> CYCLIC(5)/8, 200 000 doubles, IBM SP2 model")
axes.legend()
out = sys.argv[1] if len(sys.argv) > 1 else "sweep.png"
figure.savefig(out)
print(f"{len(records)} simulated runs; plot in {out}")
