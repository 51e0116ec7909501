"""numpy arrays redistributed between block-cyclic layouts over an mpi4py communicator, in place.

    from mpi4py import MPI
    import numpy as np
    import redist.mpi as rm
    comm = MPI.COMM_WORLD                       # 4 ranks
    a_layout = rm.Layout.scalapack(1000, 800, 64, 64, 2, 2)        # M, N, MB, NB, Pr, Pc (RSRC = CSRC = 0)
    b_layout = rm.Layout.scalapack(1000, 800, 1, 800, 4, 1)
    a = np.empty(a_layout.local_shape(comm.rank), order="F")      # this rank's local matrix
    b = np.empty(b_layout.local_shape(comm.rank), order="F")
    rm.redistribute(comm, a_layout, b_layout, a, b)              # collective

Every rank calls with the same layouts and options. Arrays are used where they lie, never copied:
one that is not a numpy array, of another dtype than float32, float64, complex64, complex128, int32
or int64, not contiguous in the layout's order, a read-only destination or of the wrong size makes
every rank raise the same ValueError ("rank K: ...", K the lowest rank at fault) before anything
moves. See python/README.md and mpi/README.md (the C++ API this wraps).
"""
import numpy as _numpy  # noqa: F401  (numpy arrays are what this module moves)

from . import _mpi

Layout = _mpi.Layout
release_buffers = _mpi.release_buffers

__all__ = ["Layout", "Plan", "redistribute", "release_buffers"]


def redistribute(comm, source, dest, a, b, **options):
    """Moves this rank's part `a` of an array laid out as `source` into `b`, laid out as `dest`.

    Collective over `comm` (an mpi4py communicator). `a` holds source.local_size(p) elements of rank
    p's source processor (an empty array on a rank that holds none), `b` receives the destination's.
    options: indexing (naive, krr, pitfalls, prylli, default, auto), schedule (async, caterpillar,
    walker-otto, stepwise, greedy, default, auto), relabel (none, exact, greedy, auto), model (the
    machine model file "auto" predicts on), placement (shared: destination q on rank q; disjoint: on
    rank P + q). Returns this rank's report: seconds of index, pack, comm, unpack, total, and
    messages_sent, bytes_sent, bytes_kept, bytes_copied_once. The GIL is released while data moves.
    """
    return _mpi.redistribute(comm, source, dest, a, b, **options)


class Plan(_mpi.Plan):
    """A redistribution planned once (collective) and executed many times: Plan(comm, source, dest,
    dtype=numpy.float64, **options), then plan.execute(a, b) (collective). plan.options is what runs
    ("auto" resolved), plan.dest_processor the destination processor this rank plays (relabelled:
    allocate b by it), plan.plan_seconds what planning took."""

    def __init__(self, comm, source, dest, dtype=_numpy.float64, **options):
        super().__init__(comm, source, dest, dtype, **options)
