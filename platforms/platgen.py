"""Shared pieces of the platform generators (python3, standard library only).

Everything a platform file says about a machine is computed here from the published facts listed in
MACHINES (each with its source), with the same rules on every machine:

* Local-work prices (docs/ARCHITECTURE.md section 4, algorithms/redist/transport/work.hpp): one work unit of a kind
  costs a fixed number of integer instructions (WORK_INSTRUCTIONS, the same on every machine) executed at
  the machine's integer instruction rate R; an index operation also pays one integer division at the
  machine's division latency; a copied byte costs the slower of the CPU copy loop and the memory system.
* Message overheads: the published one-way latency t0 of the message layer is split as
  t0 = o_send + L + o_recv with o_send = o_recv = CPU_SHARE * t0 / 2 (host CPU time, charged by the
  transport) and L = (1 - CPU_SHARE) * t0 (adapter/protocol/wire time, carried by the network links).
* Network: each node owns a pair of "message layer" links (send side, receive side) with the published
  asymptotic bandwidth r_inf of the message layer and the software share of L; the physical network
  (ports, switch channels, mesh links) is modelled separately with its hardware bandwidth and latency,
  so contention shows up where the hardware has it.

The output is deterministic: same inputs, byte-identical XML.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

# ----------------------------------------------------------------------------------------------------
# Cost-model assumptions shared by all machines (all *estimate*: instruction counts of straightforward
# compiled C loops; chosen once, never fitted to any paper's timings).
# ----------------------------------------------------------------------------------------------------
WORK_INSTRUCTIONS = {
    # property: (integer instructions per unit, what the unit is)
    "cost.index_op": (6, "one index formula: 2 multiply/add, 1 remainder fix-up, load/store, loop; plus ONE integer division"),
    "cost.table_entry": (12, "one table row: 2-3 fields computed with add/multiply, 3 stores, loop overhead"),
    "cost.intersection": (16, "one interval intersection: 2 max + 2 min (compare/branch), empty test, start/length, store"),
    "cost.element_scanned": (4, "one element visited: load, test, branch, increment"),
    "cost.run_copied": (20, "start-up of one contiguous run: source/destination address, length, loop set-up, mispredicted exit"),
    "cost.allocation": (300, "one malloc of a table, list or buffer: free-list search, split, header stores (a page fault "
                             "on first touch not included); counted only for the papers' programs (work: paper)"),
}
# redist writes the runs it will copy into a list before packing (one record per run); the papers'
# codes pack straight from their tables or intersections and write no list, so on their machines
# the price is 0 and replays model them. `redist calibrate` measures it for redist itself.
RUN_LISTED = ("cost.run_listed", 0.0,
              "0: the papers' codes pack straight from their tables, writing no run list (redist calibrate measures it)")
# ScaLAPACK's pdgemr2d packs and unpacks one 8-byte element per loop iteration (load, store, two
# pointer steps, loop test: 5 instructions). The byte rule below is already such a scalar loop (2.5
# instructions per 4-byte word, 5 per 8 bytes) or, where slower, the memory: an element copied on its
# own costs nothing beyond its bytes on these machines. `redist calibrate` measures it from the real
# pdgemr2d on the machine at hand, whose own copies are faster than a scalar loop.
ELEMENT_COPIED = ("cost.element_copied", 0.0,
                  "0: the byte price is already a scalar loop of one word at a time (5 instr per 8-byte element: load, "
                  "store, two pointer steps, loop test, as pdgemr2d's) or the memory, whichever is slower; nothing "
                  "beyond its bytes (redist calibrate measures it)")
# A copy loop moving 4-byte elements: load + store + amortised pointer/loop update = 2.5 instructions per
# 4-byte word (*estimate*), i.e. 0.625 instruction per byte.
COPY_INSTRUCTIONS_PER_BYTE = 0.625
# Streaming copy moves every byte twice through memory (read + write).
COPY_MEMORY_TRAFFIC = 2.0
# Sustained / peak memory bandwidth on bus-limited single-CPU nodes (*estimate*; McCalpin's STREAM
# survey of that era shows sustained bandwidth well below the bus peak).
MEMORY_EFFICIENCY = 0.5
# Anchor of SPECint92 ratings to instructions: SPARCstation 2 (Cypress CY7C601 SPARC, 40 MHz, 64 KB cache)
# rates SPECint92 21.8 at a scalar-pipeline IPC of about 0.65 (loads 2, stores 3 cycles): 40e6*0.65/21.8
# = 1.19e6 instructions per second per SPECint92 point (*estimate*).
INSTR_PER_SPECINT92 = 1.2e6
# Fraction of the published one-way latency spent on the host CPUs (send + receive side together).
CPU_SHARE = 0.5

CONFIG_COMMON = [
    ("network/model", "CM02", "no latency/bandwidth correction factors (LV08 would multiply latency by 13.01)"),
    ("network/crosstraffic", "0", "no reverse-direction ACK traffic: these message layers are not TCP flows"),
    ("network/TCP-gamma", "4194304", "window bound gamma/(2*latency) far above every link rate here (3.32 has no 'off')"),
]


@dataclass(frozen=True)
class Fact:
    value: float
    source: str
    estimate: bool = False

    def note(self) -> str:
        return self.source + (" *estimate*" if self.estimate else "")


@dataclass(frozen=True)
class Machine:
    key: str
    title: str
    clock_hz: Fact
    int_rate: Fact  # integer instructions per second (R)
    div_cycles: Fact  # latency of one integer division, cycles
    mem_sustained: Fact  # sustainable memory bandwidth for one rank, bytes/s
    flops: Fact  # host speed (peak flop/s of the core running a rank)
    t0: Fact | None = None  # published one-way latency of the message layer, seconds
    r_inf: Fact | None = None  # published asymptotic bandwidth of the message layer, bytes/s
    extra_props: tuple = field(default_factory=tuple)  # (name, value, comment)


def specint92_rate(specint92: float) -> float:
    return specint92 * INSTR_PER_SPECINT92


# ----------------------------------------------------------------------------------------------------
# Machine facts, each with its source (platforms/README.md lists them per machine).
# ----------------------------------------------------------------------------------------------------
MACHINES: dict[str, Machine] = {}


def _add(m: Machine) -> None:
    MACHINES[m.key] = m


_add(Machine(
    key="sp2",
    title="IBM SP2, POWER2 thin nodes (66.7 MHz), HPS switch with TB2 adapters, MPI over user-space MPL",
    clock_hz=Fact(66.7e6, "POWER2 66 MHz (Chang, Czajkowski, Hawblitzel, von Eicken, SC'96)"),
    int_rate=Fact(specint92_rate(114.3), "thin node SPECint92 114.3 (Chang et al. SC'96) x 1.2e6 instr/s per SPECint92"),
    div_cycles=Fact(20, "POWER2 fixed-point divide is iterative, ~13-20+ cycles", True),
    mem_sustained=Fact(MEMORY_EFFICIENCY * 1066.7e6,
                       "0.5 x 1067 MB/s peak (thin-node memory bus 128 bit x 66.7 MHz; the wide node has 256 bit)", True),
    flops=Fact(266e6, "POWER2 66 MHz, 266 Mflop/s peak (Chang et al. SC'96)"),
    t0=Fact(40e-6, "MPL user-space ~40 us (Majumdar thesis, SDSC); MPI on TB2 40-50 us (platform-facts, estimate)"),
    r_inf=Fact(35e6, "MPI on TB2 ~35 MB/s (platform-facts *estimate*; MPL reaches ~40 MB/s)", True),
    # Paper 000's PITFALLS and Prylli programs copy piece by piece from their intersection records; the
    # other machines' replays run redist's own work, whose record reads they price at 0 as before.
    extra_props=(("cost.record_copied", 4 / specint92_rate(114.3),
                  "4 instr / R (one intersection record read by the copy loop of paper 000's PITFALLS and Prylli "
                  "programs: load start and length, advance, loop) *estimate*"),),
))

_add(Machine(
    key="paragon",
    title="Intel Paragon XP/S 5 (ORNL), i860 XP 50 MHz GP nodes, 2-D mesh, NX under OSF/1 AD (early releases)",
    clock_hz=Fact(50e6, "i860 XP 50 MHz (platform-facts)"),
    int_rate=Fact(0.65 * 50e6, "scalar i860 XP integer core, IPC ~0.65 as the scalar SPARC anchor (no SPECint92 at hand)", True),
    div_cycles=Fact(60, "no integer divide instruction on the i860: software routine (via FP reciprocal), ~60 cycles", True),
    mem_sustained=Fact(MEMORY_EFFICIENCY * 400e6, "0.5 x 400 MB/s node memory bandwidth (TOP500 1995 report)", True),
    flops=Fact(75e6, "i860 XP 50 MHz: 75 Mflop/s peak double precision (one compute processor per GP node)"),
    t0=Fact(100e-6, "NX under OSF/1 AD: latencies ~100 us (NASA RNR-94-016)"),
    r_inf=Fact(35e6, "NX under OSF/1 AD: 30-35 MB/s (NASA RNR-94-016)"),
))

_add(Machine(
    key="paragon-sunmos",
    title="Intel Paragon XP/S 5 (ORNL), i860 XP 50 MHz GP nodes, 2-D mesh, NX under SUNMOS (variant, not committed)",
    clock_hz=MACHINES["paragon"].clock_hz,
    int_rate=MACHINES["paragon"].int_rate,
    div_cycles=MACHINES["paragon"].div_cycles,
    mem_sustained=MACHINES["paragon"].mem_sustained,
    flops=MACHINES["paragon"].flops,
    t0=Fact(70e-6, "SUNMOS ~70 us (NASA RNR-94-016)"),
    r_inf=Fact(170e6, "SUNMOS ~170 MB/s (NASA RNR-94-016)"),
))

_add(Machine(
    key="cm5",
    title="Thinking Machines CM-5, SPARC 32 MHz nodes (vector units unused), 4-ary fat-tree data network, CMMD",
    clock_hz=Fact(32e6, "SPARC 32 MHz (Leiserson et al., 'The network architecture of the CM-5', SPAA'92; sources give 32-33 MHz)"),
    int_rate=Fact(specint92_rate(21.8 * 32 / 40),
                  "Cypress CY7C601 SPARC as in the SPARCstation 2 (SPECint92 21.8 at 40 MHz) scaled to 32 MHz = 17.4", True),
    div_cycles=Fact(60, "SPARC v7 has no integer multiply/divide instructions: software .div/.rem routine ~60 cycles", True),
    mem_sustained=Fact(MEMORY_EFFICIENCY * 256e6, "0.5 x 256 MB/s (64-bit node memory path at 32 MHz)", True),
    flops=Fact(128e6, "CM-5 node peak with its 4 vector units 128 Mflop/s (TOP500); the SPARC alone does far less"),
    t0=Fact(88e-6, "CMMD ~88 us ('Communication overhead on the CM5: an experimental performance evaluation')"),
    r_inf=Fact(8.06e6, "CMMD asymptotic 8.06 MB/s (Dongarra et al., 'Performance of PVM on MPPs', netlib)"),
    extra_props=(
        ("control.barrier_latency", 4e-6,
         "CMMD barrier on the control network: 4 us (paraducks SC'93 notes; ~5 us with CMMD 3.1, infomall SCCS report)"),
        ("control.reduce_latency", 5e-6,
         "integer global reduction (one 32-bit word per node): ~5 us (infomall SCCS report, CMMD 3.1 final)"),
        ("control.scan_latency", 5e-6,
         "integer parallel prefix (scan) of one 32-bit word per node: same combining hardware as reductions, ~5 us *estimate*"),
        ("control.scan_per_word", 5e-6,
         "each further 32-bit word of a vector scan/reduction: one more control-network combine (CMMD combines one word per call) *estimate*"),
        ("control.float_reduce_latency", 25e-6,
         "floating-point global reduction: ~25 us (infomall SCCS report)"),
        ("control.broadcast_latency", 8e-6,
         "broadcast of one word to all nodes: ~8 us (infomall SCCS report)"),
        ("control.word_bytes", 4, "the control network combines 32-bit words"),
    ),
))

_add(Machine(
    key="linux-fe-2003",
    title="16-node Linux cluster (2003): AMD Athlon XP 2000+ 1.667 GHz, 1 GB, switched Fast Ethernet, MPICH 1.2.4 ch_p4",
    clock_hz=Fact(1.667e9, "AMD Athlon XP 2000+, 1.667 GHz (paper 002)"),
    int_rate=Fact(1.5 * 1.667e9, "K7 core (3-way out-of-order), sustained integer IPC ~1.5", True),
    div_cycles=Fact(40, "K7 32-bit DIV latency ~40 cycles (AMD Athlon optimization guide)", True),
    mem_sustained=Fact(MEMORY_EFFICIENCY * 2.128e9,
                       "0.5 x 2.13 GB/s peak of the 266 MT/s x 64 bit EV6 front-side bus of the Athlon XP 2000+", True),
    flops=Fact(2 * 1.667e9, "x87: one add + one multiply per cycle = 3.33 Gflop/s peak"),
    t0=Fact(120e-6, "MPI over Fast Ethernet ~110-130 us (Ames Lab SCL cluster benchmarks); MPICH ch_p4 60-120 us (estimate)"),
    r_inf=Fact(11e6, "MPI over Fast Ethernet ~90 Mb/s peak, ~11 MB/s (Ames Lab SCL cluster benchmarks)"),
))

_add(Machine(
    key="alpha3000",
    title="DEC 3000 Model 400 AXP workstation: Alpha 21064 133 MHz, 8+8 KB on-chip caches, 512 KB board cache",
    clock_hz=Fact(133e6, "Alpha 21064 133 MHz (DEC 3000/400 technical summary)"),
    int_rate=Fact(specint92_rate(74.7), "SPECint92 74.7 (DEC Alpha AXP workstation performance brief, 1993; estimate in platform-facts)", True),
    div_cycles=Fact(60, "Alpha has no integer divide instruction: OTS library routine ~60 cycles", True),
    mem_sustained=Fact(MEMORY_EFFICIENCY * 114e6,
                       "0.5 x 114 MB/s memory bus (DEC 3000 Model 500 technical summary; the Model 400 uses the same design)", True),
    flops=Fact(133e6, "Alpha 21064: one floating-point operation per cycle, 133 Mflop/s peak"),
))

_add(Machine(
    key="modern-100g",
    title="Modern what-if cluster: 64 x Intel Xeon Gold 6148 (Skylake-SP, 2.4 GHz), InfiniBand EDR 100 Gb/s, MPI",
    clock_hz=Fact(2.4e9, "Xeon Gold 6148 base clock 2.4 GHz (Intel ARK; turbo up to 3.7 GHz not assumed)"),
    int_rate=Fact(2.0 * 2.4e9, "Skylake core (4-wide out-of-order), sustained integer IPC ~2.0", True),
    div_cycles=Fact(40, "64-bit DIV on Skylake: 35-88 cycles latency (Agner Fog instruction tables), small operands ~40", True),
    mem_sustained=Fact(12e9,
                       "one core's sustainable bandwidth ~12 GB/s (single-thread STREAM on Skylake-SP is typically 10-13 GB/s; "
                       "0.5 x the socket's 128 GB/s is not reachable by one core)", True),
    flops=Fact(2.4e9 * 32, "2 AVX-512 FMA units x 8 doubles x 2 flops x 2.4 GHz = 76.8 Gflop/s per core"),
    t0=Fact(1.1e-6, "MPI on InfiniBand EDR (ConnectX-4/5): ~1.0-1.2 us typical published osu_latency figures", True),
    r_inf=Fact(12.0e9, "MPI on InfiniBand EDR: ~12 GB/s typical published osu_bw figures (100 Gb/s = 12.5 GB/s line rate)", True),
))


# ----------------------------------------------------------------------------------------------------
# Derived prices
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Price:
    name: str
    seconds: float
    derivation: str


def fmt_seconds(x: float) -> str:
    return f"{x:.4g}"


def prices(m: Machine) -> list[Price]:
    R = m.int_rate.value
    f = m.clock_hz.value
    out: list[Price] = []
    for name, (instr, what) in WORK_INSTRUCTIONS.items():
        if name == "cost.index_op":
            s = instr / R + m.div_cycles.value / f
            d = (f"{instr} instr / R + {m.div_cycles.value:g} division cycles / f = {instr / R * 1e9:.4g} ns + "
                 f"{m.div_cycles.value / f * 1e9:.4g} ns ({what}) *estimate*")
        else:
            s = instr / R
            d = f"{instr} instr / R ({what}) *estimate*"
        out.append(Price(name, s, d))
    cpu = COPY_INSTRUCTIONS_PER_BYTE / R
    mem = COPY_MEMORY_TRAFFIC / m.mem_sustained.value
    bound = "CPU copy loop" if cpu >= mem else "memory bandwidth"
    out.insert(4, Price("cost.byte_copied", max(cpu, mem),
                        f"max(CPU {COPY_INSTRUCTIONS_PER_BYTE} instr/B / R = {cpu * 1e9:.4g} ns, "
                        f"memory 2 B traffic / {m.mem_sustained.value / 1e6:.4g} MB/s = {mem * 1e9:.4g} ns): "
                        f"{bound} bound, streaming data *estimate*"))
    out.append(Price(*RUN_LISTED))
    out.append(Price(*ELEMENT_COPIED))
    # reorder to the WorkKind order of work.hpp
    order = ["cost.index_op", "cost.table_entry", "cost.intersection", "cost.element_scanned", "cost.byte_copied",
             "cost.run_copied", "cost.run_listed", "cost.allocation", "cost.element_copied"]
    out.sort(key=lambda p: order.index(p.name))
    if m.t0 is not None:
        o = CPU_SHARE * m.t0.value / 2
        d = (f"{CPU_SHARE / 2:g} x t0 = {CPU_SHARE / 2:g} x {m.t0.value * 1e6:g} us (host CPU share of the one-way latency, "
             f"split evenly between sender and receiver) *estimate*")
        out.append(Price("cost.send_overhead", o, d))
        out.append(Price("cost.recv_overhead", o, d))
    else:
        d = "no message layer on this platform (local work only): 0"
        out.append(Price("cost.send_overhead", 0.0, d))
        out.append(Price("cost.recv_overhead", 0.0, d))
    return out


def network_latency(m: Machine) -> float:
    """Part of t0 carried by the network (adapter, protocol, wire): L = (1 - CPU_SHARE) * t0."""
    assert m.t0 is not None
    return (1 - CPU_SHARE) * m.t0.value


def copy_bandwidth(m: Machine) -> float:
    return 1.0 / [p for p in prices(m) if p.name == "cost.byte_copied"][0].seconds


# ----------------------------------------------------------------------------------------------------
# XML output
# ----------------------------------------------------------------------------------------------------
def fmt_bw(bps: float) -> str:
    """Bandwidth in SimGrid units (MBps = 1e6 bytes/s)."""
    return f"{bps / 1e6:.10g}MBps"


def fmt_lat(seconds: float) -> str:
    return f"{seconds * 1e6:.10g}us"


def xml_escape_comment(text: str) -> str:
    return text.replace("--", "-")


class Xml:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, line: str, indent: int = 0) -> None:
        self.lines.append("  " * indent + line)

    def comment(self, text: str, indent: int = 0) -> None:
        body = xml_escape_comment(text)
        if "\n" in body:
            self.add("<!--", indent)
            for line in body.split("\n"):
                self.add(("  " + line) if line else "", indent)
            self.add("-->", indent)
        else:
            self.add(f"<!-- {body} -->", indent)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def header(x: Xml, m: Machine, description: str) -> None:
    x.add("<?xml version='1.0'?>")
    x.add('<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">')
    x.comment(description)
    x.add('<platform version="4.1">')
    x.add("<config>", 1)
    for key, value, why in CONFIG_COMMON:
        x.add(f'<prop id="{key}" value="{value}"/> <!-- {why} -->', 2)
    lb = copy_bandwidth(m)
    x.add(f'<prop id="network/loopback-bw" value="{lb:.6g}"/> '
          f'<!-- a message to oneself is a memory copy: 1 / cost.byte_copied bytes/s -->', 2)
    x.add('<prop id="network/loopback-lat" value="0"/> <!-- its CPU overheads are charged by the transport -->', 2)
    x.add("</config>", 1)


def host_block(x: Xml, m: Machine, name: str, indent: int, with_comments: bool) -> None:
    x.add(f'<host id="{name}" speed="{m.flops.value / 1e6:.10g}Mf">', indent)
    if with_comments:
        x.comment(f"speed: {m.flops.note()} (only converts charged seconds into flops)", indent + 1)
        x.comment(f"R = integer instruction rate = {m.int_rate.value / 1e6:.4g} M instr/s: {m.int_rate.note()}", indent + 1)
        x.comment(f"f = clock = {m.clock_hz.value / 1e6:.6g} MHz: {m.clock_hz.note()}", indent + 1)
        x.comment(f"integer division = {m.div_cycles.value:g} cycles: {m.div_cycles.note()}", indent + 1)
        x.comment(f"sustained memory bandwidth = {m.mem_sustained.value / 1e6:.4g} MB/s: {m.mem_sustained.note()}",
                  indent + 1)
    for p in prices(m):
        if with_comments:
            x.comment(f"{p.name}: {p.derivation}", indent + 1)
        x.add(f'<prop id="{p.name}" value="{fmt_seconds(p.seconds)}"/>', indent + 1)
    for name_, value, why in m.extra_props:
        if with_comments:
            x.comment(f"{name_}: {why}", indent + 1)
        x.add(f'<prop id="{name_}" value="{value:g}"/>', indent + 1)
    if m.t0 is not None and m.r_inf is not None:
        if with_comments:
            x.comment(f"intended Hockney parameters of one message: t0 = {m.t0.value * 1e6:g} us ({m.t0.note()}); "
                      f"r_inf = {m.r_inf.value / 1e6:g} MB/s ({m.r_inf.note()})", indent + 1)
        x.add(f'<prop id="hockney.t0" value="{m.t0.value:g}"/>', indent + 1)
        x.add(f'<prop id="hockney.r_inf" value="{m.r_inf.value:g}"/>', indent + 1)
    x.add("</host>", indent)


def hosts(x: Xml, m: Machine, count: int, indent: int) -> None:
    x.comment("Hosts node-0 .. node-%d; rank i runs on node-i (look hosts up by name: a lexicographic sort would "
              "put node-10 before node-2). Every host carries the same properties; node-0 shows their derivation."
              % (count - 1), indent)
    for i in range(count):
        host_block(x, m, f"node-{i}", indent, i == 0)


def write_if_changed(path: str, content: str, check: bool) -> bool:
    """Write content to path (or, with check, only compare). Returns True when path is up to date."""
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            old = fh.read()
    if check:
        return old == content
    if old != content:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(content)
    return True


# ----------------------------------------------------------------------------------------------------
# Tree-shaped networks (fat trees with aggregated channels, stars), routed by Floyd (unique paths)
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Level:
    group: int  # nodes below one switch of this level
    up_bw: float  # capacity, per direction, of the channel from one such switch to its parent (0: top level)
    up_lat: float  # hardware latency of that channel
    why: str


def tree_platform(m: Machine, zone: str, nodes: int, port_bw: float, port_lat: float, port_why: str,
                  levels: list[Level], description: str, shared_layer: str = "") -> str:
    """A tree network: node -> its level-1 switch -> ... -> top switch, one aggregated channel per subtree.

    Route of a message: sender's message-layer link (r_inf, software latency), sender's port up, channels up
    to the lowest common switch, channels down, receiver's port down, receiver's message-layer link.
    shared_layer (why, when non-empty): the node's sends and receives share ONE message-layer link msg-i
    (a CPU that moves every packet itself, both directions), instead of msg-out-i / msg-in-i.
    """
    assert levels and levels[-1].group == nodes and levels[-1].up_bw == 0
    L = network_latency(m)
    hw_nearest = 2 * port_lat
    sw_lat = (L - hw_nearest) / 2
    assert sw_lat > 0
    x = Xml()
    header(x, m, description)
    x.add(f'<zone id="{zone}" routing="Floyd">', 1)
    hosts(x, m, nodes, 2)
    x.comment("Switches: sw<level>-<index>; sw<l>-<j> serves nodes j*g .. j*g+g-1 with g its group size", 2)
    for li, lv in enumerate(levels, start=1):
        for j in range(nodes // lv.group):
            x.add(f'<router id="sw{li}-{j}"/>', 2)
    per = f"one per node, shared by its sends and receives ({shared_layer})" if shared_layer else "one per node and direction"
    x.comment(
        f"Message-layer links, {per}: r_inf = {m.r_inf.value / 1e6:g} MB/s; latency = "
        f"(L - nearest hardware latency) / 2 = ({L * 1e6:g} - {hw_nearest * 1e6:g}) / 2 us, where "
        f"L = t0 - o_send - o_recv = {L * 1e6:g} us is the adapter/protocol/wire share of t0", 2)
    for i in range(nodes):
        if shared_layer:
            x.add(f'<link id="msg-{i}" bandwidth="{fmt_bw(m.r_inf.value)}" latency="{fmt_lat(sw_lat)}"/>', 2)
        else:
            x.add(f'<link id="msg-out-{i}" bandwidth="{fmt_bw(m.r_inf.value)}" latency="{fmt_lat(sw_lat)}"/>', 2)
            x.add(f'<link id="msg-in-{i}" bandwidth="{fmt_bw(m.r_inf.value)}" latency="{fmt_lat(sw_lat)}"/>', 2)
    x.comment(f"Node ports, one per node and direction: {port_why}", 2)
    for i in range(nodes):
        x.add(f'<link id="port-up-{i}" bandwidth="{fmt_bw(port_bw)}" latency="{fmt_lat(port_lat)}"/>', 2)
        x.add(f'<link id="port-down-{i}" bandwidth="{fmt_bw(port_bw)}" latency="{fmt_lat(port_lat)}"/>', 2)
    for li, lv in enumerate(levels[:-1], start=1):
        x.comment(f"Channels between level {li} and level {li + 1}, one per subtree of {lv.group} nodes and direction: "
                  f"{lv.why}", 2)
        for j in range(nodes // lv.group):
            x.add(f'<link id="up-{li}-{j}" bandwidth="{fmt_bw(lv.up_bw)}" latency="{fmt_lat(lv.up_lat)}"/>', 2)
            x.add(f'<link id="down-{li}-{j}" bandwidth="{fmt_bw(lv.up_bw)}" latency="{fmt_lat(lv.up_lat)}"/>', 2)
    x.comment("Routes between neighbours (Floyd completes them; paths in a tree are unique)", 2)
    g1 = levels[0].group
    for i in range(nodes):
        out_layer, in_layer = (f"msg-{i}", f"msg-{i}") if shared_layer else (f"msg-out-{i}", f"msg-in-{i}")
        x.add(f'<route src="node-{i}" dst="sw1-{i // g1}" symmetrical="NO">'
              f'<link_ctn id="{out_layer}"/><link_ctn id="port-up-{i}"/></route>', 2)
        x.add(f'<route src="sw1-{i // g1}" dst="node-{i}" symmetrical="NO">'
              f'<link_ctn id="port-down-{i}"/><link_ctn id="{in_layer}"/></route>', 2)
    for li in range(1, len(levels)):
        lv, parent = levels[li - 1], levels[li]
        for j in range(nodes // lv.group):
            p = j * lv.group // parent.group
            x.add(f'<route src="sw{li}-{j}" dst="sw{li + 1}-{p}" symmetrical="NO"><link_ctn id="up-{li}-{j}"/></route>', 2)
            x.add(f'<route src="sw{li + 1}-{p}" dst="sw{li}-{j}" symmetrical="NO"><link_ctn id="down-{li}-{j}"/></route>', 2)
    x.add("</zone>", 1)
    x.add("</platform>")
    return x.text()


def run_generator(outputs: dict[str, Callable[[], str]], argv: list[str]) -> int:
    """Common command line: [--check] [--out-dir DIR]. Returns the process exit code."""
    import argparse

    ap = argparse.ArgumentParser(description="generate SimGrid platform files (deterministic)")
    ap.add_argument("--check", action="store_true", help="only verify that the files are up to date")
    ap.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args(argv)
    stale = []
    for filename, make in outputs.items():
        path = os.path.join(args.out_dir, filename)
        if not write_if_changed(path, make(), args.check):
            stale.append(path)
    if stale:
        for path in stale:
            print(f"out of date: {path} (run the generator without --check)")
        return 1
    return 0
