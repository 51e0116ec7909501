// Ranks that agree (library side, under mpirun -np 4): inputs that differ between ranks and RankMaps
// that cannot place the processors throw std::invalid_argument on every rank, with the identical
// message naming the first rank at fault, before anything moves; the communicator works afterwards.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "redist/mpi/redistribute.hpp"
#include "redist/mpi/verified_mpi_run.hpp"

namespace redist::mpi {
namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// The message `call` throws here, checked to be rank 0's message byte for byte on every rank.
void expect_same_error_everywhere(const std::function<void()>& call, const std::string& expected) {
  std::string message = "(no exception)";
  try {
    call();
  } catch (const std::invalid_argument& e) {
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("(other exception) ") + e.what();
  }
  EXPECT_EQ(message, expected) << "rank " << world_rank();
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<char> rank0(message.begin(), message.end());
  rank0.resize(static_cast<std::size_t>(length));
  MPI_Bcast(rank0.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(message, std::string(rank0.begin(), rank0.end())) << "rank " << world_rank() << " differs from rank 0";
}

const char* const kSchedules[] = {"async", "caterpillar", "greedy", "stepwise", "walker-otto"};

// P = Q = 2 processors on 4 ranks: room to misplace them.
struct Fixture {
  Index n = 96;
  Layout source = BlockCyclic(n, 4, 2);
  Layout dest = BlockCyclic(n, 4, 2);
  std::vector<std::byte> from, to;

  explicit Fixture(const RankMap& map) {
    const int me = world_rank();
    const auto p = map.source_of(me, 2), q = map.dest_of(me, 2);
    from.resize(static_cast<std::size_t>((p && *p >= 0 ? source.local_size(*p) : 0) * 8));
    to.resize(static_cast<std::size_t>((q && *q >= 0 ? dest.local_size(*q) : 0) * 8));
  }
  void run(const std::string& schedule, const RankMap& map) {
    redistribute(MPI_COMM_WORLD, source, dest, from, to, {8, "prylli", schedule, map});
  }
};

TEST(MpiAgreement, NegativeFirstRankFailsOnEveryRankWithEverySchedule) {
  ASSERT_EQ(world_size(), 4);
  for (const char* schedule : kSchedules) {
    const RankMap source_negative{-1, 0};
    Fixture f(source_negative);
    expect_same_error_everywhere([&] { f.run(schedule, source_negative); },
                                 "rank 0: RankMap: the first source rank is -1, negative");
    const RankMap dest_negative{0, -2};
    Fixture g(dest_negative);
    expect_same_error_everywhere([&] { g.run(schedule, dest_negative); },
                                 "rank 0: RankMap: the first destination rank is -2, negative");
  }
}

TEST(MpiAgreement, OutOfRangeFirstRanksFailOnEveryRank) {
  const RankMap beyond{3, 0};  // sources on ranks 3 and 4 of a 4-rank communicator
  Fixture f(beyond);
  expect_same_error_everywhere([&] { f.run("async", beyond); }, "rank 0: the layouts need 5 ranks, the run has 4");
  const RankMap huge{0, std::numeric_limits<Index>::max() - 1};  // first + Q overflows 64 bits
  Fixture g(huge);
  expect_same_error_everywhere(
      [&] { g.run("greedy", huge); },
      "rank 0: RankMap: the first destination rank is 9223372036854775806, beyond the run's 4 ranks");
}

TEST(MpiAgreement, TooFewRanksFailOnEveryRank) {
  const Layout wide = BlockCyclic(96, 4, 6);
  std::vector<std::byte> from(static_cast<std::size_t>(wide.local_size(world_rank()) * 8)), to(from.size());
  expect_same_error_everywhere([&] { redistribute(MPI_COMM_WORLD, wide, wide, from, to); },
                               "rank 0: the layouts need 6 ranks, the run has 4");
}

TEST(MpiAgreement, DifferingLayoutsNameTheFirstRankAtFaultOnEveryRank) {
  const int me = world_rank();
  const Layout good = BlockCyclic(400, 4, 4);
  std::vector<std::byte> from(static_cast<std::size_t>(good.local_size(me) * 8)), to(from.size());
  const Layout odd = BlockCyclic(400, me >= 2 ? 5 : 4, 4);  // ranks 2 and 3 were given another block
  expect_same_error_everywhere([&] { redistribute(MPI_COMM_WORLD, good, odd, from, to); },
                               "the ranks were given different layouts or options (rank 2 differs from rank 0; every "
                               "rank must pass the same)");
  // Options that differ on rank 1 only.
  expect_same_error_everywhere(
      [&] { redistribute(MPI_COMM_WORLD, good, good, from, to, {8, "prylli", me == 1 ? "greedy" : "async", {}}); },
      "the ranks were given different layouts or options (rank 1 differs from rank 0; every rank must pass the same)");
  // The communicator still works.
  const auto summary = verified_redistribute(MPI_COMM_WORLD, good, BlockCyclic(400, 7, 4), {});
  EXPECT_TRUE(summary.verified);
}

}  // namespace
}  // namespace redist::mpi
