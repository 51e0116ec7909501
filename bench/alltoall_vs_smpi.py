#!/usr/bin/env python3
"""Benchmark (issue 3): a full all-to-all redistribution with P = Q ranks (1024 by default) in phantom
mode, timed on the host, against the same communication pattern as one MPI_Alltoallv under SimGrid's
own smpirun, on the same platform, in the same run.

The platform is the modern 100 Gb/s cluster scaled to the rank count: a SimGrid <cluster> (one
private link per node to a non-blocking backbone) with the per-node link, latency and cost-model
prices of platforms/modern-100g.xml. The redistribution is CYCLIC(1) -> CYCLIC(P) of N = 16·P²
doubles: every ordered pair of distinct ranks exchanges one 128-byte message. Both simulators run
the exchange as pairwise steps: redist's caterpillar schedule, SMPI's "pair" alltoallv.

Reports wall time, peak memory and simulated messages per wall second of redist, the wall time of
smpirun, their ratio (> 1: redist is the faster simulator), and the two simulated times.
"""
import argparse
import json
import os
import resource
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
    """Runs a command; returns (stdout, wall seconds, peak RSS in MiB of the largest descendant)."""
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"alltoall_vs_smpi: {command[0]} failed: {done.stderr.strip().splitlines()[-1:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return done.stdout, wall, peak


def run_redist(redist, platform, ranks):
    n = ELEMENTS_PER_PAIR * ranks * ranks
    out, wall, peak = timed([redist, "simulate", "--platform", platform, "-P", str(ranks), "-r", "1", "-Q", str(ranks),
                             "-s", str(ranks), "-N", str(n), "--elem-bytes", str(ELEM_BYTES), "--phantom",
                             "--schedule", "caterpillar", "--json"])
    return json.loads(out), wall, peak


def run_smpi(workdir, platform, ranks):
    if shutil.which("smpicxx") is None or shutil.which("smpirun") is None:
        sys.exit("alltoall_vs_smpi: smpicxx/smpirun not found (Debian package libsimgrid-dev)")
    program = os.path.join(workdir, "smpi_alltoallv")
    subprocess.run(["smpicxx", "-O2", os.path.join(HERE, "smpi_alltoallv.cpp"), "-o", program], check=True,
                   capture_output=True)
    hostfile = os.path.join(workdir, "hosts")
    with open(hostfile, "w") as f:
        f.writelines(f"node-{i}\n" for i in range(ranks))
    out, wall, _ = timed(["smpirun", "-np", str(ranks), "-platform", platform, "-hostfile", hostfile,
                          "--cfg=smpi/alltoallv:pair", "--cfg=network/model:CM02", "--log=root.thresh:critical",
                          program, str(ELEMENTS_PER_PAIR * ELEM_BYTES)], cwd=workdir)
    return float(out.strip().splitlines()[-1]), wall


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--redist", default=os.path.join(ROOT, "build", "release", "sim", "redist"))
    args = parser.parse_args()
    if not os.access(args.redist, os.X_OK):
        sys.exit(f"alltoall_vs_smpi: {args.redist} not built (cmake --build build/release)")
    with tempfile.TemporaryDirectory() as workdir:
        platform = os.path.join(workdir, "cluster.xml")
        write_cluster(platform, args.ranks)
        report, redist_wall, redist_peak = run_redist(args.redist, platform, args.ranks)
        smpi_time, smpi_wall = run_smpi(workdir, platform, args.ranks)
    redist_time = report["phases"]["comm"]
    print(f"P = Q = {args.ranks}, {report['messages']} messages of {ELEMENTS_PER_PAIR * ELEM_BYTES} bytes, phantom")
    print(f"redist:  wall {redist_wall:8.2f} s  peak {redist_peak:7.0f} MiB  "
          f"{report['messages'] / redist_wall:10.0f} messages/s  simulated comm {redist_time * 1e3:.4f} ms")
    print(f"smpirun: wall {smpi_wall:8.2f} s  simulated alltoallv {smpi_time * 1e3:.4f} ms")
    print(f"wall-time ratio smpirun/redist = {smpi_wall / redist_wall:.2f} (> 1: redist is faster)")
    print(f"simulated time difference redist - smpi = {(redist_time - smpi_time) * 1e3:+.4f} ms "
          f"({(redist_time - smpi_time) / smpi_time:+.1%})")


if __name__ == "__main__":
    main()
