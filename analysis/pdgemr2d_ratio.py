#!/usr/bin/env python3
"""How well `redist explain` predicts pdgemr2d against redist on a machine: for each layout pair that
bench_mpi_vs_pdgemr2d measured, the predicted ratio pdgemr2d / redist (explain's pdgemr2d row over the
fastest predicted of the methods the benchmark ran, asynchronous exchange, no relabelling) beside the
measured one (pdgemr2d_seconds / redist_seconds), and how many pairs agree within a tolerance. The
benchmark times each library's fastest of repeated calls: redist's calls after the first reuse their
plan (the per-communicator cache), so redist is predicted without its index phase; pdgemr2d scans
its intervals and allocates its buffers on every call, so it is predicted whole.

    mpirun -np 4 build/bench/bench_mpi_vs_pdgemr2d --json bench.json
    redist calibrate --out machine.xml
    analysis/pdgemr2d_ratio.py bench.json --platform machine.xml [--redist build/release/cli/redist]

Each pair's layouts are those the benchmark's JSON gives (rows, cols, src and dst: grid, block, first),
every rank on the platform's first host (`--hosts 1`: a calibrated platform has one).
"""
import argparse
import json
import subprocess
import sys

def side_flags(side, d):
    (pr, pc), (mb, nb), (rsrc, csrc) = d["grid"], d["block"], d["first"]
    return [f"--{side}-grid", f"{pr}x{pc}", f"--{side}-block", f"{mb}x{nb}", f"--{side}-first", f"{rsrc},{csrc}"]


def predicted_ratio(redist, platform, entry):
    command = [redist, "explain", "--platform", platform, "--hosts", "1", "--rows", str(entry["rows"]),
               "--cols", str(entry["cols"]), *side_flags("src", entry["src"]), *side_flags("dst", entry["dst"]),
               "--schedule", "async", "--relabel", "none", "--json"]
    methods = set(entry["methods"])
    answer = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    best = min(c["predicted"]["total"] - c["predicted"]["index"] for c in answer["candidates"] if c["indexing"] in methods)
    return answer["pdgemr2d"]["predicted"]["total"] / best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", help="bench_mpi_vs_pdgemr2d --json output (4 ranks)")
    parser.add_argument("--platform", required=True, help="the machine's platform (redist calibrate --out)")
    parser.add_argument("--redist", default="build/release/cli/redist", help="the redist program")
    parser.add_argument("--tolerance", type=float, default=0.25, help="relative (default 0.25)")
    args = parser.parse_args()
    with open(args.bench) as f:
        bench = json.load(f)
    within = 0
    print("| pair | measured pdgemr2d/redist | predicted | predicted/measured |\n|---|---:|---:|---:|")
    for entry in bench["pairs"]:
        measured = entry["pdgemr2d_seconds"] / entry["redist_seconds"]
        predicted = predicted_ratio(args.redist, args.platform, entry)
        within += abs(predicted / measured - 1) <= args.tolerance
        print(f"| {entry['pair']} | {measured:.2f} | {predicted:.2f} | {predicted / measured:.2f} |")
    print(f"predicted within {100 * args.tolerance:g}% of the measured ratio in {within} of {len(bench['pairs'])} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
