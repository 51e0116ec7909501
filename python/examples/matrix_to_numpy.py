"""A matrix spread block-cyclically over 4 ranks (as a ScaLAPACK program holds it), gathered by redist
onto rank 0 as one whole local matrix, where numpy solves a linear system with it; the solution goes
back block-cyclically with a Plan made once.

    mpirun -np 4 python3 python/examples/matrix_to_numpy.py
"""
import numpy as np
from mpi4py import MPI

import redist.mpi as rm

comm = MPI.COMM_WORLD
rank = comm.rank
n = 200
spread = rm.Layout.scalapack(n, n, 16, 16, 2, 2)      # 16x16 blocks over a 2x2 grid
whole = rm.Layout.scalapack(n, n, n, n, 1, 1)          # the whole matrix on processor 0 (rank 0)

# Each rank builds its own blocks of a well-conditioned matrix: A[i, j] = 1 / (1 + |i - j|) + n [i = j].
g = spread.global_indices(rank)
i, j = np.divmod(g, n)
a_local = np.asfortranarray(1.0 / (1.0 + np.abs(i - j)) + n * (i == j))

a = np.empty(whole.local_shape(rank) if rank == 0 else (0, 0), order="F")
rm.redistribute(comm, spread, whole, a_local, a)

x_whole = np.empty((n, 1) if rank == 0 else (0, 0), order="F")
if rank == 0:
    rhs = a @ np.ones(n)                          # so that the solution is all ones
    x_whole[:, 0] = np.linalg.solve(a, rhs)       # numpy's LAPACK on the gathered matrix

# The solution back to the ranks, CYCLIC(8) over 4 (a 4x1 grid), by a plan that could be executed again.
column = rm.Layout.scalapack(n, 1, n, 1, 1, 1)
spread_x = rm.Layout.scalapack(n, 1, 8, 1, 4, 1)
plan = rm.Plan(comm, column, spread_x, np.float64)
x = np.empty(spread_x.local_shape(rank), order="F")
plan.execute(x_whole, x)
error = comm.allreduce(float(np.max(np.abs(x - 1.0), initial=0.0)), op=MPI.MAX)
assert error < 1e-10, error
if rank == 0:
    print(f"solved a {n}x{n} system gathered from a 2x2 block-cyclic layout; max |x - 1| = {error:.1e}")
