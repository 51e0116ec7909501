#!/usr/bin/env python3
"""redist from Python against redist from C++, ScaLAPACK's pdgemr2d called through ctypes (as the Python
ScaLAPACK wrappers call it) and a hand-written mpi4py Alltoallv with numpy packing (as a Heat-style user
writes a redistribution), on one matrix of doubles moved from 64x64 blocks on a 2x2 grid to 32x32
blocks on a 4x1 grid, 4 ranks. Per size, the four run in turn in every round (a barrier before each,
the slowest rank's time kept); every result is checked element by element; the median over the rounds
is reported with its ratio to redist from C++ measured in the same run.

    PYTHONPATH=build/ci/python mpirun -np 4 python3 bench/python_vs_cpp.py [--mib 8 128] [--rounds 7]

--mib is the megabytes of matrix each rank holds; the C++ side is the extension redist_cpp_timing
(bench/python_cpp_redistribute.cpp), built with the benchmarks beside the module.
"""
import argparse
import ctypes
import ctypes.util
import math
import statistics
import sys

import numpy as np
from mpi4py import MPI

import redist.mpi as rm
import redist_cpp_timing

comm = MPI.COMM_WORLD
rank = comm.rank


class Scalapack:
    """pdgemr2d_ and the BLACS calls around it through ctypes, as scalapy or PyScalapack make them."""

    def __init__(self):
        path = ctypes.util.find_library("scalapack-openmpi") or "libscalapack-openmpi.so"
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        self.all_ranks = self.grid(1, comm.size)

    def grid(self, rows, cols):
        ctxt = ctypes.c_int()
        self.lib.Cblacs_get(ctypes.c_int(-1), ctypes.c_int(0), ctypes.byref(ctxt))
        self.lib.Cblacs_gridinit(ctypes.byref(ctxt), ctypes.c_char_p(b"Row"), ctypes.c_int(rows), ctypes.c_int(cols))
        return ctxt.value

    def descriptor(self, m, n, mb, nb, ctxt, lld):
        desc = (ctypes.c_int * 9)()
        info = ctypes.c_int()
        i = ctypes.c_int
        self.lib.descinit_(desc, ctypes.byref(i(m)), ctypes.byref(i(n)), ctypes.byref(i(mb)), ctypes.byref(i(nb)),
                           ctypes.byref(i(0)), ctypes.byref(i(0)), ctypes.byref(i(ctxt)), ctypes.byref(i(lld)),
                           ctypes.byref(info))
        if info.value != 0:
            raise RuntimeError(f"descinit_ failed: info {info.value}")
        return desc

    def pdgemr2d(self, m, n, a, desc_a, b, desc_b):
        i = ctypes.c_int
        one = ctypes.byref(i(1))
        pointer = ctypes.POINTER(ctypes.c_double)
        self.lib.pdgemr2d_(ctypes.byref(i(m)), ctypes.byref(i(n)), a.ctypes.data_as(pointer), one, one, desc_a,
                           b.ctypes.data_as(pointer), one, one, desc_b, ctypes.byref(i(self.all_ranks)))


def owners(index, block, procs):
    return (index // block) % procs, (index // (block * procs)) * block + index % block


class Alltoallv:
    """What a Heat-style user writes: the element order of each message found once with numpy, then per
    call a numpy gather into a send buffer, MPI_Alltoallv, a numpy scatter out of the receive buffer."""

    def __init__(self, n, src, dst, a_indices, b_indices):
        (mb, nb, pr, pc), (mb2, nb2, qr, qc) = src, dst
        i, j = np.divmod(a_indices.ravel(order="F"), n)
        to = owners(i, mb2, qr)[0] * qc + owners(j, nb2, qc)[0]
        self.send_order = np.argsort(to, kind="stable")
        self.send_counts = np.bincount(to, minlength=comm.size)
        i, j = np.divmod(b_indices.ravel(order="F"), n)
        (row, local_row), (col, local_col) = owners(i, mb, pr), owners(j, nb, pc)
        source = row * pc + col
        source_rows = np.array([len([x for x in range(n) if (x // mb) % pr == p // pc]) for p in range(comm.size)])
        offset_at_source = local_row + local_col * source_rows[source]
        self.recv_order = np.lexsort((offset_at_source, source))
        self.recv_counts = np.bincount(source, minlength=comm.size)
        self.send = np.empty(len(self.send_order))
        self.recv = np.empty(len(self.recv_order))

    def __call__(self, a, b):
        np.take(a.ravel(order="F"), self.send_order, out=self.send)
        comm.Alltoallv([self.send, self.send_counts, MPI.DOUBLE], [self.recv, self.recv_counts, MPI.DOUBLE])
        b.ravel(order="F")[self.recv_order] = self.recv  # b is column-major: its F ravel is a view


def slowest(seconds):
    return comm.allreduce(seconds, op=MPI.MAX)


def timed(call):
    comm.Barrier()
    start = MPI.Wtime()
    call()
    return slowest(MPI.Wtime() - start)


def run(mib, rounds, scalapack):
    n = int(math.sqrt(mib * 2**20 * comm.size / 8))
    src, dst = (64, 64, 2, 2), (32, 32, 4, 1)
    a_layout = rm.Layout.scalapack(n, n, *src)
    b_layout = rm.Layout.scalapack(n, n, *dst)
    a = a_layout.global_indices(rank).astype(np.float64)  # column-major, element (i, j) = i * n + j
    expected = b_layout.global_indices(rank).astype(np.float64)
    b = np.empty(b_layout.local_shape(rank), order="F")
    grid_a, grid_b = scalapack.grid(2, 2), scalapack.grid(4, 1)
    desc_a = scalapack.descriptor(n, n, 64, 64, grid_a, max(1, a.shape[0]))
    desc_b = scalapack.descriptor(n, n, 32, 32, grid_b, max(1, b.shape[0]))
    alltoallv = Alltoallv(n, src, dst, a_layout.global_indices(rank), b_layout.global_indices(rank))
    methods = {
        "redist from C++": lambda: slowest(redist_cpp_timing.redistribute_seconds(comm, (n, n, *src), (n, n, *dst), a, b)),
        "redist from Python": lambda: timed(lambda: rm.redistribute(comm, a_layout, b_layout, a, b)),
        "pdgemr2d via ctypes": lambda: timed(lambda: scalapack.pdgemr2d(n, n, a, desc_a, b, desc_b)),
        "mpi4py Alltoallv + numpy": lambda: timed(lambda: alltoallv(a, b)),
    }
    times = {name: [] for name in methods}
    for _ in range(rounds + 1):  # the first round warms every method up and is not kept
        for name, method in methods.items():
            b[...] = -1
            seconds = method()
            if not comm.allreduce(bool(np.array_equal(b, expected)), op=MPI.LAND):
                raise SystemExit(f"{name}: wrong elements at {mib} MiB per rank")
            times[name].append(seconds)
    if rank == 0:
        base = statistics.median(times["redist from C++"][1:])
        print(f"\n{n}x{n} doubles, {mib} MiB per rank on {comm.size} ranks, 64x64 on 2x2 -> 32x32 on 4x1, "
              f"median of {rounds} rounds, every result checked")
        print(f"| method | median ms | / redist from C++ |\n|---|---|---|")
        for name, seconds in times.items():
            median = statistics.median(seconds[1:])
            print(f"| {name} | {median * 1e3:.2f} | {median / base:.3f} |")
        sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mib", type=float, nargs="+", default=[8, 128], help="MiB of matrix per rank")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if comm.size != 4:
        raise SystemExit("run it on 4 ranks (mpirun -np 4)")
    scalapack = Scalapack()
    for mib in args.mib:
        run(mib, args.rounds, scalapack)


if __name__ == "__main__":
    main()
