#!/usr/bin/env python3
"""Benchmark: a full all-to-all redistribution with P = Q ranks in phantom mode, timed on the host,
against the same communication pattern as one MPI_Alltoallv under SimGrid's own smpirun, on the
same platform, in the same run.

The platform is the modern 100 Gb/s cluster scaled to the rank count: a SimGrid <cluster> (one
private link per node to a non-blocking backbone) with the per-node link, latency and cost-model
prices of platforms/modern-100g.xml. The redistribution is CYCLIC(1) -> CYCLIC(P) of N = 16·P²
doubles: every ordered pair of distinct ranks exchanges one 128-byte message. Both simulators run
the exchange as pairwise steps: redist's caterpillar schedule, SMPI's "pair" alltoallv.

For each rank count (--ranks, default 1024 2048 4096) it reports redist's wall time, peak memory and
simulated messages per wall second; up to --smpi-up-to ranks (default 2048: smpirun needs far more
memory and time beyond) also smpirun's wall time and the ratio (> 1: redist is the faster
simulator), and the two simulated times. With --baseline (a redist binary built from an older
commit), the baseline runs the same rank counts in the same run, the two outputs must agree byte
for byte, and the speed-up of messages per second is printed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ELEMENTS_PER_PAIR = 16
ELEM_BYTES = 8


def modern_node_properties():
    """Cost prices and Hockney parameters of node-0 of platforms/modern-100g.xml."""
    tree = ET.parse(os.path.join(ROOT, "platforms", "modern-100g.xml"))
    host = next(h for h in tree.iter("host") if h.get("id") == "node-0")
    return host.get("speed"), {p.get("id"): p.get("value") for p in host.iter("prop")}


def write_cluster(path, ranks):
    speed, props = modern_node_properties()
    t0, r_inf = float(props["hockney.t0"]), float(props["hockney.r_inf"])
    cost = "\n".join(f'    <prop id="{k}" value="{v}"/>' for k, v in props.items() if k.startswith("cost."))
    with open(path, "w") as f:
        f.write(f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- platforms/modern-100g.xml scaled to {ranks} nodes by bench/alltoall_vs_smpi.py -->
<platform version="4.1">
  <config>
    <prop id="network/model" value="CM02"/>
    <prop id="network/crosstraffic" value="0"/>
    <prop id="network/TCP-gamma" value="4194304"/>
  </config>
  <cluster id="bench" prefix="node-" suffix="" radical="0-{ranks - 1}" speed="{speed}"
           bw="{r_inf}Bps" lat="{t0 / 4}s" bb_bw="{r_inf * ranks}Bps" bb_lat="0s">
{cost}
  </cluster>
</platform>
""")


def timed(command, **kwargs):
    """Runs a command; returns (stdout, wall seconds)."""
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    out, err = child.communicate()
    wall = time.monotonic() - start
    if child.returncode != 0:
        sys.exit(f"alltoall_vs_smpi: {command[0]} failed: {err.strip().splitlines()[-1:]}")
    return out, wall


def timed_with_peak(command, **kwargs):
    """As timed(), plus the peak resident memory (MiB) of the command and the children it waited for
    (redist simulates in a child process), read by GNU time so that each run is measured alone."""
    out, wall = timed(["/usr/bin/time", "-f", "peak-kib %M", "-o", PEAK_FILE] + command, **kwargs)
    with open(PEAK_FILE) as f:
        peak = int(f.read().split()[-1]) / 1024
    return out, wall, peak


def run_redist(redist, platform, ranks):
    n = ELEMENTS_PER_PAIR * ranks * ranks
    return timed_with_peak([redist, "simulate", "--platform", platform, "-P", str(ranks), "-r", "1", "-Q", str(ranks),
                            "-s", str(ranks), "-N", str(n), "--elem-bytes", str(ELEM_BYTES), "--phantom",
                            "--schedule", "caterpillar", "--json"])


def run_smpi(workdir, platform, ranks):
    if shutil.which("smpicxx") is None or shutil.which("smpirun") is None:
        sys.exit("alltoall_vs_smpi: smpicxx/smpirun not found (Debian package libsimgrid-dev)")
    program = os.path.join(workdir, "smpi_alltoallv")
    if not os.path.exists(program):
        subprocess.run(["smpicxx", "-O2", os.path.join(HERE, "smpi_alltoallv.cpp"), "-o", program], check=True,
                       capture_output=True)
    hostfile = os.path.join(workdir, "hosts")
    with open(hostfile, "w") as f:
        f.writelines(f"node-{i}\n" for i in range(ranks))
    out, wall = timed(["smpirun", "-np", str(ranks), "-platform", platform, "-hostfile", hostfile,
                          "--cfg=smpi/alltoallv:pair", "--cfg=network/model:CM02", "--log=root.thresh:critical",
                          program, str(ELEMENTS_PER_PAIR * ELEM_BYTES)], cwd=workdir)
    return float(out.strip().splitlines()[-1]), wall


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, nargs="+", default=[1024, 2048, 4096])
    parser.add_argument("--smpi-up-to", type=int, default=2048, help="largest rank count also run under smpirun")
    parser.add_argument("--redist", default=os.path.join(ROOT, "build", "release", "cli", "redist"))
    parser.add_argument("--baseline", help="a redist binary of an older commit, run on the same rank counts")
    args = parser.parse_args()
    for binary in [args.redist] + ([args.baseline] if args.baseline else []):
        if not os.access(binary, os.X_OK):
            sys.exit(f"alltoall_vs_smpi: {binary} not built (cmake --build build/release)")
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("alltoall_vs_smpi: /usr/bin/time not found (Debian package time)")
    print(f"| ranks | messages | redist wall s | peak MiB | messages/s |"
          + (" baseline wall s | baseline peak MiB | speed-up |" if args.baseline else "")
          + " smpirun wall s | smpirun/redist | simulated redist - smpi |")
    print("|---|---|---|---|---|" + ("---|---|---|" if args.baseline else "") + "---|---|---|")
    with tempfile.TemporaryDirectory() as workdir:
        global PEAK_FILE
        PEAK_FILE = os.path.join(workdir, "peak")
        for ranks in args.ranks:
            platform = os.path.join(workdir, f"cluster{ranks}.xml")
            write_cluster(platform, ranks)
            out, wall, peak = run_redist(args.redist, platform, ranks)
            report = json.loads(out)
            messages = report["messages"]
            row = f"| {ranks} | {messages} | {wall:.2f} | {peak:.0f} | {messages / wall:.0f} |"
            if args.baseline:
                old_out, old_wall, old_peak = run_redist(args.baseline, platform, ranks)
                if old_out != out:
                    sys.exit(f"alltoall_vs_smpi: at {ranks} ranks the baseline's output differs from redist's")
                row += f" {old_wall:.2f} | {old_peak:.0f} | {old_wall / wall:.2f} |"
            if ranks <= args.smpi_up_to:
                smpi_time, smpi_wall = run_smpi(workdir, platform, ranks)
                redist_time = report["phases"]["comm"]
                row += (f" {smpi_wall:.2f} | {smpi_wall / wall:.2f} |"
                        f" {(redist_time - smpi_time) * 1e3:+.4f} ms ({(redist_time - smpi_time) / smpi_time:+.1%}) |")
            else:
                row += " not run | | |"
            print(row, flush=True)


PEAK_FILE = ""

if __name__ == "__main__":
    main()
