// What the MPI API cannot do right it refuses, on every rank with one message, before it plans or
// moves anything (under mpirun -np 4): source and destination in the same or overlapping storage
// (it once returned with elements wrong), buffers too small for huge layouts (once std::bad_alloc
// on every rank), null buffers where the layout gives the rank elements, and the ScaLAPACK drop-in
// given a null A or B (p?tran: C) where the rank holds part of the submatrix (once a segfault). A
// REDIST_MODEL the drop-in cannot use is no refusal: tests/mpi/test_scalapack_auto.cpp. Arguments
// and settings that differ between ranks (p?tran's ALPHA and BETA, REDIST_MPI_SHARED_MEMORY) are
// refused on every rank, a log that is a FIFO blocks nothing, and a Plan shared by two threads
// runs their executions one at a time.
#include <gtest/gtest.h>
#include <mpi.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "redist/mpi/plan.hpp"
#include "redist/mpi/redistribute.hpp"
#include "redist/mpi/shared_array.hpp"
#include "redist/mpi/shared_window_publication.hpp"
#include "redist/scalapack/scalapack.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int context);
}

namespace redist::mpi {
namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// The message `call` throws (std::invalid_argument), checked to be the same on every rank.
std::string agreed_message(const std::function<void()>& call) {
  std::string message = "(no exception)";
  try {
    call();
  } catch (const std::invalid_argument& e) {
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("(other exception) ") + e.what();
  }
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<char> rank0(message.begin(), message.end());
  rank0.resize(static_cast<std::size_t>(length));
  MPI_Bcast(rank0.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(message, std::string(rank0.begin(), rank0.end())) << "rank " << world_rank() << " differs from rank 0";
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

// 160000 doubles, block-cyclic on the 4 ranks, to other blocks on the same 4.
struct Arrays {
  static constexpr Index kN = 160000;
  Layout source = BlockCyclic(kN, 100, 4);
  Layout dest = BlockCyclic(kN, 7, 4);
  std::vector<double> storage;
  Arrays() : storage(static_cast<std::size_t>(std::max(source.local_size(world_rank()), dest.local_size(world_rank())))) {
    std::iota(storage.begin(), storage.end(), 1000.0 * world_rank());
  }
  std::span<double> source_part() { return {storage.data(), static_cast<std::size_t>(source.local_size(world_rank()))}; }
  std::span<double> dest_part() { return {storage.data(), static_cast<std::size_t>(dest.local_size(world_rank()))}; }
};

TEST(MpiRefusals, SameStorageForSourceAndDestinationIsRefused) {
  Arrays a;
  const std::string bytes = std::to_string(8 * std::min(a.source.local_size(0), a.dest.local_size(0)));
  const std::string expected = "rank 0: source and destination buffers overlap (" + bytes +
                               " bytes in common): redistribute() does not work in place, give the destination its own "
                               "storage";
  EXPECT_EQ(agreed_message([&] {
              redistribute<double>(MPI_COMM_WORLD, a.source, a.dest, std::span<const double>(a.source_part()), a.dest_part());
            }),
            expected);
  // A plan executed on one buffer: the same.
  Plan plan(MPI_COMM_WORLD, a.source, a.dest, {.elem_bytes = 8});
  EXPECT_EQ(agreed_message([&] { plan.execute<double>(std::span<const double>(a.source_part()), a.dest_part()); }), expected);
  // Overlapping on rank 2 only, by one element: rank 2 is named.
  const std::size_t s = static_cast<std::size_t>(a.source.local_size(world_rank()));
  const std::size_t d = static_cast<std::size_t>(a.dest.local_size(world_rank()));
  std::vector<double> both(s + d);
  const std::span<const double> from(both.data(), s);
  const std::span<double> apart(both.data() + s, d), overlapping(both.data() + s - 1, d);
  EXPECT_EQ(agreed_message([&] {
              redistribute<double>(MPI_COMM_WORLD, a.source, a.dest, from, world_rank() == 2 ? overlapping : apart);
            }),
            "rank 2: source and destination buffers overlap (8 bytes in common): redistribute() does not work in "
            "place, give the destination its own storage");
  // Apart, the same call runs.
  EXPECT_EQ(agreed_message([&] { redistribute<double>(MPI_COMM_WORLD, a.source, a.dest, from, apart); }),
            "(no exception)");
}

TEST(MpiRefusals, BuffersTooSmallForAHugeLayoutAreRefusedBeforePlanning) {
  // 2^40 rows: a plan of this rank's part would take terabytes. The buffers hold 10 elements.
  const Layout huge = scalapack_layout({.rows = Index{1} << 40, .cols = 1, .row_block = 64, .col_block = 1,
                                        .grid_rows = 4, .grid_cols = 1});
  std::vector<double> from(10), to(10);
  const std::string need = std::to_string(huge.local_size(0) * 8);
  EXPECT_EQ(agreed_message([&] { redistribute<double>(MPI_COMM_WORLD, huge, huge, std::span<const double>(from), to); }),
            "rank 0: source buffer holds 80 bytes, the layout needs " + need);
  // With an explicit relabelling, found before the ranks agree, the destination buffer is checked
  // against the part the relabelling places on the rank.
  const Layout small = BlockCyclic(4000, 10, 4);
  std::vector<double> from_small(static_cast<std::size_t>(small.local_size(world_rank())));
  EXPECT_EQ(agreed_message([&] {
              redistribute<double>(MPI_COMM_WORLD, small, small,
                                   std::span<const double>(from_small), to, {.relabel = "greedy"});
            }),
            "rank 0: destination buffer holds 80 bytes, the layout needs 8000");
}

TEST(MpiRefusals, NullBufferWithElementsIsRefused) {
  const Layout layout = BlockCyclic(4000, 10, 4);
  const std::size_t mine = static_cast<std::size_t>(layout.local_size(world_rank()));
  std::vector<double> from(mine), to(mine);
  const double* null = nullptr;
  const std::span<const double> source = world_rank() == 1 ? std::span<const double>(null, mine) : std::span<const double>(from);
  EXPECT_EQ(agreed_message([&] { redistribute<double>(MPI_COMM_WORLD, layout, BlockCyclic(4000, 20, 4), source, to); }),
            "rank 1: source buffer is null, and the layout gives this rank " + std::to_string(mine * 8) + " bytes of it");
}

// The drop-in: a 2 x 2 grid, 8 x 8 matrices in blocks of 2, each rank 4 x 4 of each.
struct Grid {
  int context = 0;
  int desc[9] = {};
  std::vector<double> a = std::vector<double>(16, 1.0), b = std::vector<double>(16, 0.0);
  Grid() {
    Cblacs_get(-1, 0, &context);
    Cblacs_gridinit(&context, "Row", 2, 2);
    const int values[9] = {1, context, 8, 8, 2, 2, 0, 0, 4};
    std::copy(values, values + 9, desc);
  }
  ~Grid() { Cblacs_gridexit(context); }
  // p?tran's sub(C) := beta sub(C) + alpha sub(A)ᵀ, C null on rank c_rank (-1: none).
  std::string tran(int m, int n, double alpha, double beta, int c_rank) {
    const bool null_c = world_rank() == c_rank;
    return agreed_message([&] {
      scalapack::tran<double>(m, n, alpha, a.data(), 1, 1, desc, beta, null_c ? nullptr : b.data(), 1, 1, desc);
    });
  }
  std::string gemr2d(int m, int n, bool a_null_on, int a_rank, bool b_null_on, int b_rank) {
    const bool null_a = a_null_on && world_rank() == a_rank, null_b = b_null_on && world_rank() == b_rank;
    return agreed_message([&] {
      scalapack::gemr2d<double>(m, n, null_a ? nullptr : a.data(), 1, 1, desc, null_b ? nullptr : b.data(), 1, 1, desc,
                                context);
    });
  }
};

// p?tran (PDTRAN(M, N, ALPHA, A, IA, JA, DESCA, BETA, C, IC, JC, DESCC)) with a null C where the
// rank holds part of sub(C): refused as a null A is (it once wrote through the null pointer).
TEST(MpiRefusals, TranWithANullCWhereTheRankHoldsPartOfSubCIsRefused) {
  Grid g;
  EXPECT_EQ(g.tran(8, 8, 1.0, 0.0, 2), "pdtran: rank 2: argument 9 (C): null, where this rank holds 4 x 4 elements of sub(C)");
  EXPECT_EQ(g.tran(8, 8, 0.0, 2.0, 1), "pdtran: rank 1: argument 9 (C): null, where this rank holds 4 x 4 elements of sub(C)");
  EXPECT_EQ(g.b, std::vector<double>(16, 0.0)) << "C written by a refused call";
  // alpha 0 and beta 1: C is neither read nor written, a null one is fine (PBLAS returns at once).
  EXPECT_EQ(g.tran(8, 8, 0.0, 1.0, 3), "(no exception)");
  // sub(C) = rows and columns 1-2 lies on process (0, 0) alone: rank 1 may pass no C.
  EXPECT_EQ(g.tran(2, 2, 1.0, 0.0, 1), "(no exception)");
  EXPECT_EQ(g.b[0], world_rank() == 0 ? 1.0 : 0.0);
}

TEST(MpiRefusals, DropInWithNullArraysWhereTheRankHoldsPartOfTheSubmatrixIsRefused) {
  Grid g;
  EXPECT_EQ(g.gemr2d(8, 8, true, 1, false, 0),
            "pdgemr2d: rank 1: argument 3 (A): null, where this rank holds 4 x 4 elements of sub(A)");
  EXPECT_EQ(g.gemr2d(8, 8, false, 0, true, 3),
            "pdgemr2d: rank 3: argument 7 (B): null, where this rank holds 4 x 4 elements of sub(B)");
  EXPECT_EQ(g.b, std::vector<double>(16, 0.0)) << "B written by a refused call";
  // sub(A) = rows and columns 1-2 lies on process (0, 0) alone: rank 1 may pass no A, as ScaLAPACK
  // reads none there.
  EXPECT_EQ(g.gemr2d(2, 2, true, 1, false, 0), "(no exception)");
  EXPECT_EQ(g.b[0], world_rank() == 0 ? 1.0 : 0.0);
}

// p?tran's scalars are global: an ALPHA or BETA that differs on one rank is refused on every rank,
// naming the rank and the argument, before C is written (it was once accepted, each rank scaling its
// own part by its own value).
TEST(MpiRefusals, TranWithAScalarThatDiffersBetweenRanksIsRefused) {
  Grid g;
  const double alpha = world_rank() == 2 ? 2.0 : 1.0, beta = world_rank() == 3 ? 0.5 : 0.0;
  EXPECT_EQ(agreed_message([&] { scalapack::tran<double>(8, 8, alpha, g.a.data(), 1, 1, g.desc, 0.0, g.b.data(), 1, 1, g.desc); }),
            "pdtran: rank 2: argument 3 (ALPHA): another value than rank 0's");
  EXPECT_EQ(agreed_message([&] { scalapack::tran<double>(8, 8, 1.0, g.a.data(), 1, 1, g.desc, beta, g.b.data(), 1, 1, g.desc); }),
            "pdtran: rank 3: argument 8 (BETA): another value than rank 0's");
  EXPECT_EQ(g.b, std::vector<double>(16, 0.0)) << "C written by a refused call";
  // -0 and 0 are one value.
  const double zero = world_rank() == 1 ? -0.0 : 0.0;
  EXPECT_EQ(agreed_message([&] { scalapack::tran<double>(8, 8, 1.0, g.a.data(), 1, 1, g.desc, zero, g.b.data(), 1, 1, g.desc); }),
            "(no exception)");
  EXPECT_EQ(g.b, std::vector<double>(16, 1.0));
}

// The environment that changes how the drop-in moves the data is agreed with the arguments: a rank
// that forbids shared memory where the others use it would wait for messages they never send.
TEST(MpiRefusals, DropInWithASharedMemorySwitchThatDiffersBetweenRanksIsRefused) {
  Grid g;
  if (world_rank() == 1) ::setenv("REDIST_MPI_SHARED_MEMORY", "0", 1);
  const std::string refused = g.gemr2d(8, 8, false, 0, false, 0);
  ::unsetenv("REDIST_MPI_SHARED_MEMORY");
  EXPECT_EQ(refused, "pdgemr2d: rank 1: REDIST_MPI_SHARED_MEMORY forbids shared memory where rank 0's allows it (set it "
                     "alike on every rank)");
  EXPECT_EQ(g.b, std::vector<double>(16, 0.0)) << "B written by a refused call";
  EXPECT_EQ(g.gemr2d(8, 8, false, 0, false, 0), "(no exception)");
  EXPECT_EQ(g.b, std::vector<double>(16, 1.0));
}

// ICTXT is a handle of each rank's own, and two contexts over the same processes have communicators
// of their own: a rank passing the 1 x 4 context where the others pass the 2 x 2 one once waited on
// another communicator than theirs, every rank for ever. The ranks meet by the processes ICTXT
// names (context_meeting.hpp): the copy is made, here and with the handles swapped on two ranks.
TEST(MpiRefusals, DropInWithAnotherContextOverTheSameProcessesOnOneRankMovesTheData) {
  Grid g;
  int row = 0;
  Cblacs_get(-1, 0, &row);
  Cblacs_gridinit(&row, "Row", 1, 4);
  for (const int odd : {2, 0}) {
    std::fill(g.b.begin(), g.b.end(), 0.0);
    const int ictxt = world_rank() == odd ? row : g.context;
    EXPECT_EQ(agreed_message([&] {
                scalapack::gemr2d<double>(8, 8, g.a.data(), 1, 1, g.desc, g.b.data(), 1, 1, g.desc, ictxt);
              }),
              "(no exception)");
    EXPECT_EQ(g.b, std::vector<double>(16, 1.0)) << "rank " << odd << " passing the 1 x 4 context";
  }
  Cblacs_gridexit(row);
}

// REDIST_SCALAPACK_LOG naming a FIFO nobody reads once blocked every rank in open(): the log is
// written only to a regular file, opened without waiting, and the ranks log a call only when all
// can, so a FIFO on one rank leaves the file of the others without the call's lines.
TEST(MpiRefusals, DropInLogThatIsAFifoNeitherBlocksNorStopsTheCopy) {
  char folder[] = "/tmp/redist-log-XXXXXX";
  if (world_rank() == 0) {
    ASSERT_NE(::mkdtemp(folder), nullptr);
  }
  MPI_Bcast(folder, sizeof folder, MPI_CHAR, 0, MPI_COMM_WORLD);
  const std::string fifo = std::string(folder) + "/fifo", file = std::string(folder) + "/log";
  if (world_rank() == 0) {
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto lines = [&] {
    std::ifstream in(file);
    return static_cast<int>(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
  };
  Grid g;
  ::setenv("REDIST_SCALAPACK_LOG", fifo.c_str(), 1);
  EXPECT_EQ(g.gemr2d(8, 8, false, 0, false, 0), "(no exception)");
  EXPECT_EQ(g.b, std::vector<double>(16, 1.0));
  std::fill(g.b.begin(), g.b.end(), 0.0);
  ::setenv("REDIST_SCALAPACK_LOG", (world_rank() == 2 ? fifo : file).c_str(), 1);
  EXPECT_EQ(g.gemr2d(8, 8, false, 0, false, 0), "(no exception)");
  EXPECT_EQ(g.b, std::vector<double>(16, 1.0));
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(lines(), 0) << "a call logged by some ranks only";
  ::setenv("REDIST_SCALAPACK_LOG", file.c_str(), 1);
  EXPECT_EQ(g.gemr2d(8, 8, false, 0, false, 0), "(no exception)");
  ::unsetenv("REDIST_SCALAPACK_LOG");
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(lines(), 4) << "one line per rank";
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::filesystem::remove_all(folder);
}

// With a /dev/shm too small for the window (here: Open MPI's backing folder missing on one rank,
// ctest's MpiWithoutSharedMemory), Open MPI's first rank of the node returned an error from
// MPI_Win_allocate_shared while the others waited in it for ever. The room is checked first and
// agreed: every rank moves the data as messages, the same data, and a SharedArray is private
// memory. Skipped where the backing folder is not changed on any rank (the other runs).
TEST(MpiWithoutSharedMemory, APlanASharedArrayAndTheDropInMoveTheDataAsMessages) {
  int changed = std::getenv("OMPI_MCA_osc_sm_backing_directory") != nullptr ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &changed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (changed == 0) GTEST_SKIP() << "run by ctest's MpiWithoutSharedMemory";
  Arrays a;
  const std::span<const double> from(a.storage.data(), static_cast<std::size_t>(a.source.local_size(world_rank())));
  const std::size_t d = static_cast<std::size_t>(a.dest.local_size(world_rank()));
  std::vector<double> expected(d), got(d);
  ::setenv("REDIST_MPI_SHARED_MEMORY", "0", 1);
  redistribute<double>(MPI_COMM_WORLD, a.source, a.dest, from, std::span<double>(expected));
  ::unsetenv("REDIST_MPI_SHARED_MEMORY");
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  {
    Plan plan(comm, a.source, a.dest, {.elem_bytes = 8});
    for (int call = 0; call < 3; ++call) {  // the second call on a communicator asks for a window
      std::fill(got.begin(), got.end(), -1.0);
      plan.execute<double>(from, std::span<double>(got));
      EXPECT_EQ(got, expected) << "call " << call;
    }
    EXPECT_EQ(shared_window_bytes(comm), 0);
    SharedArray<double> shared(comm, static_cast<Index>(from.size()));
    std::copy(from.begin(), from.end(), shared.data());
    std::fill(got.begin(), got.end(), -1.0);
    plan.execute<double>(std::span<const double>(shared.span()), std::span<double>(got));
    EXPECT_EQ(got, expected) << "from a SharedArray";
  }
  MPI_Comm_free(&comm);
  Grid g;
  for (int call = 0; call < 2; ++call) {
    std::fill(g.b.begin(), g.b.end(), 0.0);
    EXPECT_EQ(g.gemr2d(8, 8, false, 0, false, 0), "(no exception)");
    EXPECT_EQ(g.b, std::vector<double>(16, 1.0)) << "call " << call;
  }
}

// One Plan executed from two threads at once on every rank (MPI_THREAD_MULTIPLE) once deadlocked,
// the two executions' messages mixed: they run one at a time (plan.hpp), and each gives the result.
TEST(MpiRefusals, APlanExecutedFromTwoThreadsAtOnceRunsBothExecutions) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  ASSERT_EQ(provided, MPI_THREAD_MULTIPLE) << "this program initialises MPI for threads (mpi_main.cpp)";
  Arrays a;
  Plan plan(MPI_COMM_WORLD, a.source, a.dest, {.elem_bytes = 8});
  const std::span<const double> from(a.storage.data(), static_cast<std::size_t>(a.source.local_size(world_rank())));
  const std::size_t d = static_cast<std::size_t>(a.dest.local_size(world_rank()));
  std::vector<double> expected(d), first(d), second(d);
  plan.execute<double>(from, std::span<double>(expected));
  for (int round = 0; round < 20; ++round) {
    std::thread other([&] { plan.execute<double>(from, std::span<double>(second)); });
    plan.execute<double>(from, std::span<double>(first));
    other.join();
    ASSERT_EQ(first, expected) << "round " << round;
    ASSERT_EQ(second, expected) << "round " << round;
  }
}

}  // namespace
}  // namespace redist::mpi
