"""A matrix moved between two ScaLAPACK layouts on 4 ranks, checked element by element.

    mpirun -np 4 python3 python/examples/redistribute.py        # PYTHONPATH as the main job prints it
"""
import numpy as np
from mpi4py import MPI

import redist.mpi as rm

comm = MPI.COMM_WORLD
rank = comm.rank
m, n = 1000, 600
# 64x64 blocks over a 2x2 grid (a descriptor as ScaLAPACK's DESCINIT makes it: DTYPE_, CTXT_, M_, N_, MB_,
# NB_, RSRC_, CSRC_, LLD_ = this rank's local rows), to rows dealt one by one over 4 ranks in a 4x1 grid.
a_layout = rm.Layout.scalapack(m, n, 64, 64, 2, 2)
desc_a = [1, 0, m, n, 64, 64, 0, 0, max(1, a_layout.local_shape(rank)[0])]
a_layout = rm.Layout.descriptor(desc_a, 2, 2)
b_layout = rm.Layout.scalapack(m, n, 1, n, 4, 1)

a = np.empty(a_layout.local_shape(rank), order="F")  # this rank's local matrix, column-major as ScaLAPACK's
a[...] = a_layout.global_indices(rank)                 # element (i, j) holds i * n + j
b = np.empty(b_layout.local_shape(rank), order="F")

report = rm.redistribute(comm, a_layout, b_layout, a, b)
assert np.array_equal(b, b_layout.global_indices(rank)), f"rank {rank}: wrong elements"
totals = comm.gather(report["total"])
if rank == 0:
    print(f"{m}x{n} doubles, 64x64 blocks on 2x2 -> 1x{n} blocks on 4x1: every element in place, "
          f"slowest rank {max(totals) * 1e3:.2f} ms")
