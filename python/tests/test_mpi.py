"""redist.mpi under mpirun on 4 ranks: every element of every redistribution checked against the
block-cyclic formulas of ScaLAPACK computed here in numpy (independently of redist), for each dtype,
storage order, layout kind, option and Plan; and every refusal raised on every rank with one message."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import redist.mpi as rm

comm = MPI.COMM_WORLD
rank = comm.rank
pytestmark = pytest.mark.skipif(comm.size != 4, reason="run under mpirun -np 4")

DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32, np.int64]


def owner_and_local(index, extent, block, procs, first):
    """ScaLAPACK's INDXG2P and INDXG2L for 0-based global indices."""
    return (index // block + first) % procs, (index // (block * procs)) * block + index % block


def local_global_indices(m, n, mb, nb, pr, pc, rsrc, csrc, order, processor):
    """The row-major global index of each element of `processor`'s local matrix, by ScaLAPACK's formulas."""
    my_row, my_col = divmod(processor, pc)
    rows = [i for i in range(m) if owner_and_local(i, m, mb, pr, rsrc)[0] == my_row]
    cols = [j for j in range(n) if owner_and_local(j, n, nb, pc, csrc)[0] == my_col]
    out = np.empty((len(rows), len(cols)), dtype=np.int64, order=order)
    for a, i in enumerate(rows):
        assert owner_and_local(i, m, mb, pr, rsrc)[1] == a
        for b, j in enumerate(cols):
            out[a, b] = i * n + j
    return out


def values(indices, dtype):
    """Element values that name their global index (and differ in both parts of a complex number)."""
    v = indices.astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        v = v + 1j * (indices + 0.5).astype(dtype)
    return v


def agreed_refusal(call):
    """Runs `call`, which every rank must refuse: returns the one message all ranks raised."""
    try:
        call()
        message = None
    except ValueError as refused:
        message = str(refused)
    messages = comm.allgather(message)
    assert messages[0] is not None and messages.count(messages[0]) == comm.size, messages
    return messages[0]


PAIRS = [
    # (m, n, source mb, nb, grid, first), (dest mb, nb, grid, first)
    ((37, 23), (4, 3, (2, 2), (0, 0)), (1, 23, (4, 1), (0, 0))),
    ((50, 41), (5, 7, (2, 2), (1, 0)), (3, 2, (1, 4), (0, 2))),
    ((16, 64), (16, 16, (1, 4), (0, 0)), (2, 2, (2, 2), (1, 1))),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["F", "C"])
@pytest.mark.parametrize("pair", PAIRS)
def test_scalapack_layouts_every_element(dtype, order, pair):
    (m, n), (mb, nb, (pr, pc), (rs, cs)), (mb2, nb2, (qr, qc), (rs2, cs2)) = pair
    src = rm.Layout.scalapack(m, n, mb, nb, pr, pc, rs, cs, order=order)
    dst = rm.Layout.scalapack(m, n, mb2, nb2, qr, qc, rs2, cs2, order=order)
    a = values(local_global_indices(m, n, mb, nb, pr, pc, rs, cs, order, rank), dtype)
    expected = values(local_global_indices(m, n, mb2, nb2, qr, qc, rs2, cs2, order, rank), dtype)
    assert a.shape == src.local_shape(rank) and expected.shape == dst.local_shape(rank)
    b = np.zeros(dst.local_shape(rank), dtype=dtype, order=order)
    report = rm.redistribute(comm, src, dst, a, b)
    np.testing.assert_array_equal(b, expected)
    assert report["total"] > 0 and report["bytes_kept"] + report["bytes_sent"] == a.nbytes


@pytest.mark.parametrize("indexing", ["naive", "pitfalls", "prylli", "default"])
@pytest.mark.parametrize("schedule", ["async", "caterpillar", "greedy", "stepwise"])
def test_methods_and_schedules(indexing, schedule):
    src = rm.Layout.scalapack(30, 20, 3, 2, 2, 2)
    dst = rm.Layout.scalapack(30, 20, 2, 5, 4, 1)
    a = values(local_global_indices(30, 20, 3, 2, 2, 2, 0, 0, "F", rank), np.float64)
    b = np.zeros(dst.local_shape(rank), order="F")
    rm.redistribute(comm, src, dst, a, b, indexing=indexing, schedule=schedule)
    np.testing.assert_array_equal(b, values(local_global_indices(30, 20, 2, 5, 4, 1, 0, 0, "F", rank), np.float64))


def test_krr_on_dividing_blocks():
    src = rm.Layout.block_cyclic(1000, 6, 4)
    dst = rm.Layout.block_cyclic(1000, 2, 4)
    a = src.global_indices(rank).astype(np.int64)
    b = np.zeros(dst.local_size(rank), dtype=np.int64)
    rm.redistribute(comm, src, dst, a, b, indexing="krr", schedule="walker-otto")
    expected = [g for g in range(1000) if (g // 2) % 4 == rank]  # CYCLIC(2) on 4, by hand
    np.testing.assert_array_equal(b, expected)


def test_block_cyclic_disjoint_placement():
    src = rm.Layout.block_cyclic(1001, 7, 2)
    dst = rm.Layout.block_cyclic(1001, 3, 2)
    a = np.arange(1001, dtype=np.float64)[[(g // 7) % 2 == rank for g in range(1001)]] if rank < 2 else np.empty(0)
    mine = rank - 2  # destinations on ranks 2 and 3
    b = np.zeros(dst.local_size(mine) if mine >= 0 else 0)
    rm.redistribute(comm, src, dst, a, b, placement="disjoint")
    if mine >= 0:
        np.testing.assert_array_equal(b, [g for g in range(1001) if (g // 3) % 2 == mine])


def test_descriptor_layouts():
    # DTYPE_, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_: each rank's own LLD_ (its local rows, at least 1)
    src = rm.Layout.scalapack(21, 13, 4, 4, 2, 2)
    rows = src.local_shape(rank)[0]
    desc_a = [1, 0, 21, 13, 4, 4, 0, 0, max(1, rows)]
    dst = rm.Layout.scalapack(21, 13, 21, 1, 1, 4)
    desc_b = [1, 0, 21, 13, 21, 1, 0, 0, 21]
    a = values(local_global_indices(21, 13, 4, 4, 2, 2, 0, 0, "F", rank), np.float64)
    b = np.zeros(dst.local_shape(rank), order="F")
    rm.redistribute(comm, rm.Layout.descriptor(desc_a, 2, 2), rm.Layout.descriptor(desc_b, 1, 4), a, b)
    np.testing.assert_array_equal(b, values(local_global_indices(21, 13, 21, 1, 1, 4, 0, 0, "F", rank), np.float64))


def test_layout_global_indices_are_scalapacks():
    for order in ("F", "C"):
        layout = rm.Layout.scalapack(19, 11, 3, 2, 2, 2, 1, 1, order=order)
        np.testing.assert_array_equal(layout.global_indices(rank),
                                      local_global_indices(19, 11, 3, 2, 2, 2, 1, 1, order, rank))


def test_plan_executes_many_times():
    src = rm.Layout.scalapack(40, 30, 4, 4, 2, 2)
    dst = rm.Layout.scalapack(40, 30, 5, 3, 2, 2, 1, 1)
    plan = rm.Plan(comm, src, dst, np.complex128, indexing="prylli", schedule="async")
    expected = local_global_indices(40, 30, 5, 3, 2, 2, 1, 1, "F", rank)
    b = np.zeros(dst.local_shape(rank), dtype=np.complex128, order="F")
    for step in range(4):
        a = values(local_global_indices(40, 30, 4, 4, 2, 2, 0, 0, "F", rank), np.complex128) * (step + 1)
        report = plan.execute(a, b)
        np.testing.assert_array_equal(b, values(expected, np.complex128) * (step + 1))
        assert report["index"] == 0
    assert plan.options == {"indexing": "prylli", "schedule": "async", "relabel": "none"}
    assert plan.dtype == np.complex128 and plan.plan_seconds > 0


def test_plan_relabelled_places_the_destination():
    src = rm.Layout.scalapack(24, 24, 6, 6, 2, 2)
    dst = rm.Layout.scalapack(24, 24, 6, 6, 2, 2, 1, 1)  # the same blocks, shifted: relabelling keeps them all
    plan = rm.Plan(comm, src, dst, np.float64, relabel="exact")
    q = plan.dest_processor
    b = np.zeros(dst.local_shape(q), order="F")
    report = plan.execute(values(local_global_indices(24, 24, 6, 6, 2, 2, 0, 0, "F", rank), np.float64), b)
    np.testing.assert_array_equal(b, local_global_indices(24, 24, 6, 6, 2, 2, 1, 1, "F", q))
    assert report["bytes_sent"] == 0


def test_auto_with_a_model_file():
    model = os.environ.get("REDIST_TEST_MODEL")
    if not model:
        pytest.fail("REDIST_TEST_MODEL must name a machine model (ctest writes one)")
    src = rm.Layout.scalapack(32, 32, 4, 4, 2, 2)
    dst = rm.Layout.scalapack(32, 32, 8, 2, 4, 1)
    plan = rm.Plan(comm, src, dst, np.float32, indexing="auto", schedule="auto", model=model)
    assert plan.options["indexing"] in ("naive", "krr", "pitfalls", "prylli")
    b = np.zeros(dst.local_shape(rank), dtype=np.float32, order="F")
    plan.execute(values(local_global_indices(32, 32, 4, 4, 2, 2, 0, 0, "F", rank), np.float32), b)
    np.testing.assert_array_equal(b, values(local_global_indices(32, 32, 8, 2, 4, 1, 0, 0, "F", rank), np.float32))
    b[:] = 0
    rm.redistribute(comm, src, dst, values(local_global_indices(32, 32, 4, 4, 2, 2, 0, 0, "F", rank), np.float32), b,
                    indexing="auto", schedule="auto", relabel="none", model=model)
    np.testing.assert_array_equal(b, values(local_global_indices(32, 32, 8, 2, 4, 1, 0, 0, "F", rank), np.float32))


# Refusals: each on one rank (or all), raised on every rank with the same message naming the rank,
# and the communicator still works after it.
SRC = rm.Layout.scalapack(12, 10, 2, 3, 2, 2)
DST = rm.Layout.scalapack(12, 10, 3, 2, 2, 2)


def arrays(dtype=np.float64):
    return (values(local_global_indices(12, 10, 2, 3, 2, 2, 0, 0, "F", rank), dtype),
            np.zeros(DST.local_shape(rank), dtype=dtype, order="F"))


def still_works():
    a, b = arrays()
    rm.redistribute(comm, SRC, DST, a, b)
    np.testing.assert_array_equal(b, local_global_indices(12, 10, 3, 2, 2, 2, 0, 0, "F", rank))


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda a, b: (a, np.ascontiguousarray(b)),
         "rank 1: destination array is not contiguous in column-major (Fortran) order"),
        (lambda a, b: (np.ascontiguousarray(a), b),
         "rank 1: source array is not contiguous in column-major (Fortran) order"),
        (lambda a, b: (a.astype(np.float16), b.astype(np.float16)),
         "rank 1: source array has dtype float16; redist moves float32, float64, complex64, complex128, int32 or int64"),
        (lambda a, b: (a, b.astype(np.float32, order="F")),
         "rank 1: source array has dtype float64 and destination array float32: both must have the same"),
        (lambda a, b: (a, np.lib.stride_tricks.as_strided(b, writeable=False)), "rank 1: destination array is read-only"),
        (lambda a, b: (a, np.zeros((b.shape[0], b.shape[1] - 1), order="F")),
         "rank 1: destination buffer holds 144 bytes, the layout needs 192"),
        (lambda a, b: (list(a.ravel()), b), "rank 1: source array is a list, not a numpy array"),
        (lambda a, b: (a.astype(np.int64, order="F"), b.astype(np.int64, order="F")),
         "the ranks were given different array types (rank 1 differs from rank 0; every rank must pass the same)"),
    ],
)
def test_refused_on_every_rank(spoil, message):
    a, b = arrays()
    if rank == 1:
        a, b = spoil(a, b)
    assert agreed_refusal(lambda: rm.redistribute(comm, SRC, DST, a, b)).startswith(message)
    still_works()


def test_non_contiguous_one_dimensional_array():
    src, dst = rm.Layout.block_cyclic(100, 3, 4), rm.Layout.block_cyclic(100, 5, 4)
    a = np.zeros(2 * src.local_size(rank))[::2]
    b = np.zeros(dst.local_size(rank))
    assert agreed_refusal(lambda: rm.redistribute(comm, src, dst, a, b)).startswith(
        "rank 0: source array is not contiguous (a strided view)")


def test_options_refused_on_every_rank():
    a, b = arrays()
    assert agreed_refusal(lambda: rm.redistribute(comm, SRC, DST, a, b, indexing="krr" if rank == 2 else "prylli")) == (
        "the ranks were given different layouts or options (rank 2 differs from rank 0; every rank must pass the same)")
    assert agreed_refusal(lambda: rm.redistribute(comm, SRC, DST, a, b, indexing="bogus")).startswith(
        "rank 0: unknown indexing method 'bogus'")
    assert agreed_refusal(lambda: rm.redistribute(comm, SRC, DST, a, b, **({"colour": 1} if rank == 3 else {}))) == (
        "rank 3: no option 'colour' (the options are indexing, schedule, relabel, model, placement)")
    assert agreed_refusal(lambda: rm.redistribute(comm, SRC, DST, a, b, indexing="auto", model="/no/such.model.json")
                          ).startswith("rank 0: machine model /no/such.model.json")
    assert agreed_refusal(lambda: rm.redistribute(comm, SRC, DST, a, b, indexing="auto")).startswith("rank 0: ")
    still_works()


def test_descriptor_with_padding_refused():
    a, b = arrays()
    rows = SRC.local_shape(rank)[0]
    desc = [1, 0, 12, 10, 2, 3, 0, 0, rows + (1 if rank == 3 else 0)]
    assert agreed_refusal(lambda: rm.redistribute(comm, rm.Layout.descriptor(desc, 2, 2), DST, a, b)) == (
        f"rank 3: source's descriptor has LLD_ {rows + 1}, this rank holds {rows} local rows: "
        "redist.mpi moves dense local matrices (LLD_ = local rows)")
    still_works()


def test_plan_execute_refusals():
    plan = rm.Plan(comm, SRC, DST, np.float64)
    a, b = arrays()
    assert agreed_refusal(lambda: plan.execute(a, b.astype(np.float32, order="F") if rank == 0 else b)).startswith(
        "rank 0: an array of dtype float32 given to a plan for float64")
    assert agreed_refusal(lambda: plan.execute(a, b[:, :1] if rank == 2 else b)).startswith(
        "rank 2: destination buffer holds")
    assert agreed_refusal(lambda: plan.execute(a, a if rank == 3 else b)).startswith("rank 3: ")
    plan.execute(a, b)
    np.testing.assert_array_equal(b, local_global_indices(12, 10, 3, 2, 2, 2, 0, 0, "F", rank))
    assert agreed_refusal(lambda: rm.Plan(comm, SRC, DST, np.float16)).startswith("rank 0: the plan has dtype float16")


def test_layout_refusals_are_local():
    with pytest.raises(ValueError, match="first process row 2 is outside a grid extent of 2"):
        rm.Layout.scalapack(10, 10, 2, 2, 2, 2, 2, 0)
    with pytest.raises(ValueError, match="a ScaLAPACK descriptor has 9 entries"):
        rm.Layout.descriptor([1, 0, 10, 10], 2, 2)
    with pytest.raises(ValueError, match="order 'X' is neither"):
        rm.Layout.scalapack(10, 10, 2, 2, 2, 2, order="X")
    with pytest.raises(ValueError, match="processor 4 is outside the layout's 4 processors"):
        SRC.local_shape(4)
    with pytest.raises(TypeError):
        rm.redistribute("not a communicator", SRC, DST, *arrays())
