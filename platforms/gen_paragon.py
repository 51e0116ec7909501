#!/usr/bin/env python3
"""Generate platforms/paragon.xml: Intel Paragon XP/S 5 as an explicit 2-D mesh with XY routes.

SimGrid has no mesh zone (its torus wraps around), so every host-to-host route is written out, following
the Paragon's dimension-order (X first, then Y) wormhole routing. Deterministic and rerunnable:

    python3 platforms/gen_paragon.py            # rewrite platforms/paragon.xml
    python3 platforms/gen_paragon.py --check    # exit 1 if the committed file differs from the output
    python3 platforms/gen_paragon.py --os sunmos --out /tmp/paragon-sunmos.xml   # what-if variant

Mesh: COLS x ROWS = 4 x 16 = 64 compute nodes (64 of the 66 GP nodes of the ORNL XP/S 5, one cabinet-sized
rectangle: Paragon cabinets stack 16 nodes high, 4 columns wide). node-k sits at column x = k % COLS,
row y = k // COLS, so ranks 0..15 form a compact 4 x 4 sub-mesh, like the 16-node partition of paper 004.

A route crosses: the sender's and the receiver's NX message-layer links (r_inf, software latency; one
per node, below), the node's injection/ejection link to its mesh router (175 MB/s each way), and mesh
channels, one per hop, shared by every dimension-order route through them.

Mesh channel capacity (`--mesh-channels worm`, the default): r_inf, not the 200 MB/s of the wires.
Under wormhole routing a message's worm holds every channel of its path from head to tail, and its
flits advance only as fast as the sender's message layer injects them (r_inf, 35 MB/s under OSF/1);
worms needing one channel take turns (dimension-order routing on a mesh needs no virtual channels to
be deadlock-free, and the Paragon's router is modelled with none: *estimate*). So a channel moves at
most r_inf of message data, however many messages cross it, and messages whose routes share a channel
share r_inf: the contention paper 004 blames for its ratios (section 5.2: "each step generates 16
communications ... thereby generating less contention"). Derived from the published r_inf and routing,
nothing fitted. `--mesh-channels wire` gives the channels their 200 MB/s (the model before), as a what-if.

Message layer (`--message-layer shared`, the default): ONE message-layer link per node, at r_inf, for its
sends and receives together. Under OSF/1 AD the 35 MB/s is a limit of the node's message software, not of
the hardware: the same nodes and mesh move 170 MB/s under SUNMOS (NASA RNR-94-016: "messages can be sent
only at a bandwidth of 30-35 MB per second compared to 200 MB per second peak" under OSF/1 AD). That
software is one sequential agent per node (the message processor, one i860 polling in one loop the send
queues and the send- and receive-DMA completions, over the memory bus it shares with the DMA units:
Culler, Singh and Gupta, "Parallel Computer Architecture", 1999, sec. 7.6), so a node that sends and
receives at once splits r_inf between the two; the hardware below it (175 MB/s in + 175 MB/s out) is
full duplex and stays one link per direction. This is paper 004's contention by number of communications
per step (section 5.2: "our scheduler needs only 7 step, but each step generates 16 communications,
whereas each of the 16 steps of the caterpillar algorithm generates fewer communications (between 6 and
8 per step), thereby generating less contention"): in a complete step every node both sends and
receives. *estimate*: no published figure measures a Paragon node sending and receiving at once.
`--message-layer split` gives each direction its own r_inf (the model before), as a what-if.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep platforms/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import platgen  # noqa: E402
from platgen import MACHINES, Xml, fmt_bw, fmt_lat, header, hosts, network_latency  # noqa: E402

COLS = 4
ROWS = 16
MESH_LINK_BW = 200e6  # full-duplex 200 MB/s per direction (TOP500 1995 report, architecture notes)
INJECTION_BW = 175e6  # 175 MB/s in + 175 MB/s out per node (same source)
HOP_LATENCY = 40e-9  # one mesh router + link traversal, *estimate* (wormhole routers switch in tens of ns)
INJECTION_LATENCY = 0.0  # the network interface time is inside the message-layer latency


def link_name(x: int, y: int, d: str) -> str:
    """Directed mesh link leaving router (x, y) towards d in E (x+1), W (x-1), S (y+1), N (y-1)."""
    return f"mesh-{d}-x{x}-y{y}"


def xy_hops(src: int, dst: int, cols: int) -> list[str]:
    sx, sy = src % cols, src // cols
    dx, dy = dst % cols, dst // cols
    hops = []
    x, y = sx, sy
    while x != dx:  # X first
        d = "E" if dx > x else "W"
        hops.append(link_name(x, y, d))
        x += 1 if d == "E" else -1
    while y != dy:  # then Y
        d = "S" if dy > y else "N"
        hops.append(link_name(x, y, d))
        y += 1 if d == "S" else -1
    return hops


def build(os_release: str = "osf1", cols: int = COLS, rows: int = ROWS, message_layer: str = "shared",
          mesh_channels: str = "worm") -> str:
    m = MACHINES["paragon" if os_release == "osf1" else "paragon-sunmos"]
    nodes = cols * rows
    L = network_latency(m)
    hw_nearest = 2 * INJECTION_LATENCY + HOP_LATENCY  # node-0 -> node-1: one mesh hop
    sw_lat = (L - hw_nearest) / 2
    if os_release == "osf1":
        os_text = ("NX (MPI on top of it in paper 004) under OSF/1 AD as measured in 1993-94 (NASA RNR-94-016;\n"
                   "the R1.1/R1.2 era): the only release whose figures are published here. Later OSF/1 releases\n"
                   "improved NX substantially; a SUNMOS variant (70 us, 170 MB/s) comes from\n"
                   "the generator option os=sunmos (see its usage).")
    else:
        os_text = ("NX under SUNMOS (NASA RNR-94-016). What-if variant: the committed paragon.xml models OSF/1 AD.")
    block = "ranks 0..15 = a 4 x 4 sub-mesh" if cols == 4 else f"ranks 0..{cols - 1} = row 0"
    far = nodes - 1
    far_hops = (cols - 1) + (rows - 1)
    shared = message_layer == "shared"
    channel_bw = min(MESH_LINK_BW, m.r_inf.value) if mesh_channels == "worm" else MESH_LINK_BW
    if mesh_channels == "worm":
        channel_text = (f"{channel_bw / 1e6:g} MB/s = r_inf: a worm holds its channels while the message layer injects it\n"
                        f"(wires {MESH_LINK_BW / 1e6:g} MB/s; see gen_paragon.py)")
    else:
        channel_text = f"{MESH_LINK_BW / 1e6:g} MB/s"
    if shared:
        layer_text = (f"Links: msg-k = node k's NX message layer ({m.r_inf.value / 1e6:g} MB/s, {sw_lat * 1e6:.6g} us), ONE link\n"
                      "shared by the node's sends and receives (one message software per node, see gen_paragon.py);")
    else:
        layer_text = (f"Links per direction: msg-out-k / msg-in-k = NX layer ({m.r_inf.value / 1e6:g} MB/s, "
                      f"{sw_lat * 1e6:.6g} us each);")
    desc = f"""Intel Paragon XP/S 5 (ORNL) -- GENERATED by platforms/gen_paragon.py, do not edit by hand.
{m.title}.
Message layer modelled: {os_text}
Hockney parameters: t0 = {m.t0.value * 1e6:g} us, r_inf = {m.r_inf.value / 1e6:g} MB/s.
Mesh: {cols} columns x {rows} rows = {nodes} compute nodes; node-k at x = k % {cols}, y = k // {cols}
({block}). Dimension-order routing: X first, then Y; explicit routes (Full zone).
{layer_text}
inj-out-k / inj-in-k = node <-> mesh router ({INJECTION_BW / 1e6:g} MB/s); mesh-D-xX-yY = mesh link leaving router
(X,Y) towards D (E: x+1, W: x-1, S: y+1, N: y-1), {HOP_LATENCY * 1e9:g} ns per hop (*estimate*),
{channel_text}.
Latency split: t0 = o_send + L + o_recv, o_send = o_recv = t0/4 (host properties cost.send_overhead /
cost.recv_overhead, charged by the transport), L = t0/2 = {L * 1e6:g} us carried by the links:
nearest pair node-0 -> node-1 (1 hop) has exactly L; node-0 -> node-{far} ({far_hops} hops) adds {(far_hops - 1) * HOP_LATENCY * 1e6:.3g} us.
Not captured: wormhole blocking of stalled worms (the fluid model shares link bandwidth instead), the
message co-processor, OS-release variability, service/I-O nodes and their traffic."""
    x = Xml()
    header(x, m, desc)
    x.add('<zone id="paragon" routing="Full">', 1)
    hosts(x, m, nodes, 2)
    x.comment(f"NX message-layer links: bandwidth r_inf; latency (L - {hw_nearest * 1e9:g} ns of hardware on the "
              f"nearest route) / 2", 2)
    for i in range(nodes):
        if shared:
            x.add(f'<link id="msg-{i}" bandwidth="{fmt_bw(m.r_inf.value)}" latency="{fmt_lat(sw_lat)}"/>', 2)
        else:
            x.add(f'<link id="msg-out-{i}" bandwidth="{fmt_bw(m.r_inf.value)}" latency="{fmt_lat(sw_lat)}"/>', 2)
            x.add(f'<link id="msg-in-{i}" bandwidth="{fmt_bw(m.r_inf.value)}" latency="{fmt_lat(sw_lat)}"/>', 2)
    x.comment("Injection (node -> router) and ejection (router -> node) links: 175 MB/s each way (TOP500 1995 report)", 2)
    for i in range(nodes):
        x.add(f'<link id="inj-out-{i}" bandwidth="{fmt_bw(INJECTION_BW)}" latency="{fmt_lat(INJECTION_LATENCY)}"/>', 2)
        x.add(f'<link id="inj-in-{i}" bandwidth="{fmt_bw(INJECTION_BW)}" latency="{fmt_lat(INJECTION_LATENCY)}"/>', 2)
    x.comment(f"Mesh channels, one per direction, no wrap-around: {channel_bw / 1e6:g} MB/s "
              f"(wires: 200 MB/s full duplex, TOP500 1995 report)", 2)
    for yy in range(rows):
        for xx in range(cols):
            for d, ok in (("E", xx + 1 < cols), ("W", xx > 0), ("S", yy + 1 < rows), ("N", yy > 0)):
                if ok:
                    x.add(f'<link id="{link_name(xx, yy, d)}" bandwidth="{fmt_bw(channel_bw)}" '
                          f'latency="{fmt_lat(HOP_LATENCY)}"/>', 2)
    x.comment("Routes: every ordered pair, X first then Y (a message to oneself uses the loopback)", 2)
    for s in range(nodes):
        for d in range(nodes):
            if s == d:
                continue
            out_layer, in_layer = (f"msg-{s}", f"msg-{d}") if shared else (f"msg-out-{s}", f"msg-in-{d}")
            links = [out_layer, f"inj-out-{s}"] + xy_hops(s, d, cols) + [f"inj-in-{d}", in_layer]
            ctn = "".join(f'<link_ctn id="{name}"/>' for name in links)
            x.add(f'<route src="node-{s}" dst="node-{d}" symmetrical="NO">{ctn}</route>', 2)
    x.add("</zone>", 1)
    x.add("</platform>")
    return x.text()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="verify that the output file is up to date")
    ap.add_argument("--os", dest="os_release", choices=["osf1", "sunmos"], default="osf1")
    ap.add_argument("--cols", type=int, default=COLS)
    ap.add_argument("--rows", type=int, default=ROWS)
    ap.add_argument("--mesh-channels", choices=["worm", "wire"], default="worm",
                    help="mesh channel capacity: r_inf, as wormhole worms hold channels (default), or the wires' 200 MB/s")
    ap.add_argument("--message-layer", choices=["split", "shared"], default="shared",
                    help="one NX message-layer link per node for both directions (default), or one per direction (what-if)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "paragon.xml"))
    args = ap.parse_args(argv)
    if args.cols < 2 or args.rows < 1:
        ap.error("the mesh needs at least 2 columns and 1 row")
    content = build(args.os_release, args.cols, args.rows, args.message_layer, args.mesh_channels)
    if not platgen.write_if_changed(args.out, content, args.check):
        print(f"out of date: {args.out} (run platforms/gen_paragon.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
