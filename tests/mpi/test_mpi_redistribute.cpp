// Real MPI runs (8 ranks; sub-communicators of 2 to 8): the transport's contract, every method ×
// schedule on random 1-D and 2-D cases, pdgemr2d's identical results, and bad input that fails on
// every rank together.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>

#include "every_indexing_method.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/mpi/run_datatype.hpp"
#include "redist/redistribute/direct_exchange.hpp"
#include "redist/mpi/shared_array.hpp"
#include "redist/mpi/shared_window_publication.hpp"
#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/mpi/verified_mpi_run.hpp"
#include "redist/schedule/schedule_choice.hpp"

// This process's MPI_Comm_dup calls, counted by the profiling interface: redist's calls reach the
// definition below before MPI's.
namespace {
int comm_dups = 0;
}  // namespace

extern "C" int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  ++comm_dups;
  return PMPI_Comm_dup(comm, newcomm);
}

namespace redist::mpi {
namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// The first `ranks` ranks of the world, or MPI_COMM_NULL on the others.
MPI_Comm first_ranks(int ranks) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() < ranks ? 0 : MPI_UNDEFINED, world_rank(), &comm);
  return comm;
}

TEST(MpiTransport, AnySourceReceivesReportTheirSenderAndSize) {
  MpiTransport t(MPI_COMM_WORLD);
  const Rank n = t.size(), me = t.rank();
  std::vector<std::vector<std::byte>> in(static_cast<std::size_t>(n), std::vector<std::byte>(64));
  std::vector<std::byte> out(static_cast<std::size_t>(me) + 1, std::byte{static_cast<unsigned char>(me)});
  std::vector<Request> receives, sends;
  for (Rank k = 0; k < n - 1; ++k) receives.push_back(t.irecv(kAnySource, in[static_cast<std::size_t>(k)].data(), 64, 3));
  const Request other_tag = t.irecv(kAnySource, in[static_cast<std::size_t>(n - 1)].data(), 64, 4);
  t.barrier();
  for (Rank to = 0; to < n; ++to) {
    if (to != me) sends.push_back(t.isend(to, out.data(), static_cast<Index>(out.size()), 3));
  }
  std::set<Rank> sources;
  for (std::size_t left = receives.size(); left > 0; --left) {
    const Completion c = t.wait_any(receives);
    EXPECT_EQ(receives[c.index], kNullRequest);
    EXPECT_EQ(c.bytes, c.source + 1);  // rank k sends k + 1 bytes of value k
    EXPECT_EQ(in[c.index][0], std::byte{static_cast<unsigned char>(c.source)});
    sources.insert(c.source);
  }
  EXPECT_EQ(static_cast<Rank>(sources.size()), n - 1);
  EXPECT_FALSE(sources.contains(me));
  t.wait_all(sends);
  for (Request r : sends) EXPECT_EQ(r, kNullRequest);
  // The tag-4 receive is still open: close it with a message to ourselves.
  const Request self = t.isend(me, out.data(), 1, 4);
  std::vector<Request> last{other_tag, self};
  t.wait_all(last);
  t.barrier();
}

TEST(MpiTransport, AMessageLargerThanTheReceiveThrowsOnTheReceiver) {
  MpiTransport t(MPI_COMM_WORLD);
  std::vector<std::byte> buffer(16);
  if (t.rank() == 0) {
    std::vector<Request> send{t.isend(1, buffer.data(), 16, 9)};
    t.wait_all(send);
  } else if (t.rank() == 1) {
    std::vector<Request> receive{t.irecv(0, buffer.data(), 8, 9)};
    EXPECT_THROW(t.wait_any(receive), std::runtime_error);
  }
  t.barrier();
  EXPECT_THROW(t.isend(t.size(), buffer.data(), 1, 0), std::invalid_argument);
  EXPECT_THROW(t.irecv(0, buffer.data(), 1, -2), std::invalid_argument);
}

struct RandomCase {
  int ranks;
  Layout source, dest;
  RankMap map;
  bool two_d;
};

Index pick(std::mt19937_64& rng, Index low, Index high) {
  return low + static_cast<Index>(rng() % static_cast<std::uint64_t>(high - low + 1));
}

ScalapackDescriptor random_descriptor(std::mt19937_64& rng, Index rows, Index cols, Index procs) {
  std::vector<Index> divisors;
  for (Index d = 1; d <= procs; ++d) {
    if (procs % d == 0) divisors.push_back(d);
  }
  const Index pr = divisors[rng() % divisors.size()], pc = procs / pr;
  return {rows, cols, pick(rng, 1, 9), pick(rng, 1, 9), pr, pc, pick(rng, 0, pr - 1), pick(rng, 0, pc - 1)};
}

// Same sequence on every rank (fixed seed): all agree on each case without talking.
RandomCase random_case(std::mt19937_64& rng, int ranks, bool two_d) {
  const bool disjoint = ranks >= 4 && rng() % 3 == 0;
  const Index P = disjoint ? pick(rng, 1, ranks - 1) : pick(rng, 1, ranks);
  const Index Q = disjoint ? ranks - P : (P == ranks ? pick(rng, 1, ranks) : ranks);
  const RankMap map = disjoint ? RankMap::disjoint(P) : RankMap::shared();
  if (two_d) {
    const Index rows = pick(rng, 1, 70), cols = pick(rng, 1, 70);
    const auto from = random_descriptor(rng, rows, cols, P);
    auto to = random_descriptor(rng, rows, cols, Q);
    if (rng() % 2 == 0) {  // half the cases kr <-> r in both dimensions, which Krr takes
      to.row_block = from.row_block * pick(rng, 1, 3);
      to.col_block = std::max<Index>(1, from.col_block / pick(rng, 1, 2));
      if (from.col_block % to.col_block != 0) to.col_block = from.col_block;
    }
    return {ranks, scalapack_layout(from), scalapack_layout(to), map, true};
  }
  const Index n = pick(rng, 1, 3000), r = pick(rng, 1, 12);
  const Index s = rng() % 2 == 0 ? r * pick(rng, 1, 4) : pick(rng, 1, 12);
  return {ranks, BlockCyclic(n, r, P, pick(rng, 0, P - 1)), BlockCyclic(n, s, Q, pick(rng, 0, Q - 1)), map, false};
}

TEST(MpiRedistribute, FiftyRandomCasesVerifyUnderEveryMethodAndSchedule) {
  ASSERT_EQ(world_size(), 8) << "run under mpirun -np 8";
  std::mt19937_64 rng(2026);
  int runs = 0;
  for (int k = 0; k < 50; ++k) {
    const int ranks = 2 + k % 7;  // 2..8
    const RandomCase c = random_case(rng, ranks, k % 2 == 1);
    MPI_Comm comm = first_ranks(ranks);
    if (comm == MPI_COMM_NULL) continue;
    for (const IndexingMethod& method : test::every_indexing_method()) {
      const std::string indexing(method.name);
      for (const ScheduleChoice choice : schedule_names().values()) {
        const std::string schedule(name_of(choice));
        const Options options{4, indexing, schedule, c.map};
        const bool walker_otto_applies = !c.two_d && c.source.processors() == c.dest.processors() &&
                                         krr_takes(c.source, c.dest);  // P = Q and s = K·r (or r = K·s)
        if (!method_takes(method, c.source, c.dest)) {
          // Krr's tables are for kr <-> r block sizes: a clean error on every rank.
          EXPECT_THROW(verified_redistribute(comm, c.source, c.dest, options), std::invalid_argument);
          continue;
        }
        if (choice == Strategy::WalkerOtto && !walker_otto_applies) {
          // Walker and Otto's closed form is for 1-D P = Q, s = K·r: a clean error everywhere.
          EXPECT_THROW(verified_redistribute(comm, c.source, c.dest, options), std::invalid_argument);
          continue;
        }
        const auto summary = verified_redistribute(comm, c.source, c.dest, options);
        EXPECT_TRUE(summary.verified) << "case " << k << " " << indexing << "/" << schedule << " misplaced "
                                      << summary.misplaced;
        ++runs;
      }
    }
    MPI_Comm_free(&comm);
  }
  if (world_rank() == 0) std::cout << runs << " verified MPI runs\n";
}

TEST(MpiRedistribute, IdenticalToPdgemr2dOnThirtyRandomLayoutPairs) {
  std::mt19937_64 rng(77);
  const Index ranks = world_size();
  for (int k = 0; k < 30; ++k) {
    const Index rows = pick(rng, 1, 90), cols = pick(rng, 1, 90);
    const auto from = random_descriptor(rng, rows, cols, pick(rng, 1, ranks));
    const auto to = random_descriptor(rng, rows, cols, pick(rng, 1, ranks));
    const auto& methods = test::every_indexing_method();
    const IndexingMethod& method = methods[static_cast<std::size_t>(k) % methods.size()];
    const std::string indexing(method_takes(method, scalapack_layout(from), scalapack_layout(to)) ? method.name : "prylli");
    const auto result = compare_with_pdgemr2d(from, to, {8, indexing, "default", RankMap::shared()});
    EXPECT_TRUE(result.identical) << "pair " << k;
    EXPECT_TRUE(result.verified) << "pair " << k;
  }
}

// A message's derived datatype describes exactly the bytes, in the order, that redist's pack() writes.
TEST(MpiRunDatatype, PacksTheSameBytesAsRedistsPacking) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(5 + world_rank()));
  int checked = 0;
  for (int k = 0; k < 40; ++k) {
    const Index rows = pick(rng, 1, 200), cols = pick(rng, 1, 200), procs = pick(rng, 1, 6);
    const Layout source = scalapack_layout(random_descriptor(rng, rows, cols, procs));
    const Layout dest = scalapack_layout(random_descriptor(rng, rows, cols, pick(rng, 1, 6)));
    const Rank me = static_cast<Rank>(pick(rng, 0, procs - 1));
    Work work;
    const RankPlan plan = make_plan(indexing_method("prylli"), source, dest, RankMap::shared(), me, true, work);
    std::vector<std::byte> local(static_cast<std::size_t>(source.local_size(me) * 8));
    for (std::size_t i = 0; i < local.size(); ++i) local[i] = static_cast<std::byte>(i * 37 % 253);
    for (const PeerPlan& peer : plan.sends) {
      const RunDatatype type = RunDatatype::of(peer.runs, 8);
      ASSERT_TRUE(type.valid());
      int type_bytes = 0;
      MPI_Type_size(type.get(), &type_bytes);
      EXPECT_EQ(type_bytes, peer.elements * 8);
      std::vector<std::byte> ours(static_cast<std::size_t>(peer.elements * 8)), theirs(ours.size() + 16);
      pack(peer, local, 8, ours.data());
      int position = 0;
      MPI_Pack(local.data(), 1, type.get(), theirs.data(), static_cast<int>(theirs.size()), &position, MPI_COMM_SELF);
      ASSERT_EQ(position, static_cast<int>(ours.size()));
      theirs.resize(ours.size());
      EXPECT_EQ(theirs, ours) << "case " << k << " peer " << peer.peer;
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
}

// Each message travels in place or packed, by the rule of direct_exchange.hpp, independently at its
// two ends: pairs with long pieces, tiny pieces and long pieces on one side only, all identical
// to pdgemr2d, and between them both kinds of message at both ends.
TEST(MpiRedistribute, InPlaceAndPackedMessagesAgreeWithPdgemr2d) {
  ASSERT_EQ(world_size(), 8) << "run under mpirun -np 8";
  const std::vector<std::pair<ScalapackDescriptor, ScalapackDescriptor>> pairs = {
      {{400, 300, 64, 64, 2, 4, 0, 0}, {400, 300, 64, 64, 4, 2, 0, 0}},     // long pieces at both ends
      {{400, 300, 1, 1, 4, 2, 0, 0}, {400, 300, 1, 1, 2, 4, 0, 0}},         // 8-byte pieces
      {{400, 300, 400, 38, 1, 8, 0, 0}, {400, 300, 1, 300, 8, 1, 0, 0}},    // whole columns -> single rows
      {{400, 300, 32, 32, 2, 4, 0, 0}, {400, 300, 48, 48, 4, 2, 1, 1}},     // irregular pieces
  };
  Index kinds[4] = {0, 0, 0, 0};  // sends in place, sends packed, receives in place, receives packed
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto& [from, to] = pairs[k];
    const auto result = compare_with_pdgemr2d(from, to, {8, "prylli", "async", RankMap::shared()});
    EXPECT_TRUE(result.identical) << "pair " << k;
    EXPECT_TRUE(result.verified) << "pair " << k;
    Work work;
    const Rank me = world_rank();
    const RankPlan plan = make_plan(indexing_method("prylli"), scalapack_layout(from), scalapack_layout(to),
                                    RankMap::shared(), me, true, work);
    for (const PeerPlan& p : plan.sends) {
      if (p.peer != me) ++kinds[travels_in_place(p, 8) ? 0 : 1];
    }
    for (const PeerPlan& p : plan.receives) {
      if (p.peer != me) ++kinds[travels_in_place(p, 8) ? 2 : 3];
    }
  }
  Index all[4];
  MPI_Allreduce(kinds, all, 4, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  for (const Index count : all) EXPECT_GT(count, 0);
}

// On one node the first call on a communicator goes as messages and later ones through the shared
// window, which release_buffers(comm) frees; with REDIST_MPI_SHARED_MEMORY=0 there is never a window.
// Every call's result is checked.
TEST(MpiRedistribute, RepeatedCallsOnOneNodeGoThroughTheSharedWindow) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const Layout from = scalapack_layout({300, 200, 16, 16, 2, 4, 0, 0});
  const Layout to = scalapack_layout({300, 200, 1, 40, 4, 2, 1, 0});
  const bool wanted = shared_memory_wanted();
  const auto call = [&] { EXPECT_TRUE(verified_redistribute(comm, from, to, {8, "prylli", "async", RankMap::shared()}).verified); };
  call();
  EXPECT_EQ(shared_window_bytes(comm), 0);
  call();
  if (wanted) {
    EXPECT_GT(shared_window_bytes(comm), 0);
  } else {
    EXPECT_EQ(shared_window_bytes(comm), 0);
  }
  release_buffers(comm);
  EXPECT_EQ(shared_window_bytes(comm), 0);
  call();
  EXPECT_EQ(shared_window_bytes(comm), 0);  // after a release, the next call counts as a first one
  call();
  EXPECT_EQ(shared_window_bytes(comm) > 0, wanted);
  MPI_Comm_free(&comm);
}

// The one-call redistribute() keeps its transport (a duplicate of the caller's communicator) with the
// communicator (kept_transport.hpp): the first call on it makes two duplicates, the transport's and
// the shared-memory exchange's (shared_window_publication.hpp, asked for whether or not the ranks
// share memory), and later calls none; a freed communicator's go with it, and the next
// communicator gets its own.
TEST(MpiRedistribute, RepeatedCallsDuplicateTheCommunicatorOnce) {
  const Layout from = scalapack_layout({300, 200, 16, 16, 2, 4, 0, 0});
  const Layout to = scalapack_layout({300, 200, 1, 40, 4, 2, 1, 0});
  const Options options{8, "prylli", "async", RankMap::shared()};
  for (int communicator = 0; communicator < 2; ++communicator) {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    const int before = comm_dups;
    EXPECT_TRUE(verified_redistribute(comm, from, to, options, 3).verified);
    EXPECT_EQ(comm_dups - before, 2) << "communicator " << communicator;
    const int after = comm_dups;
    EXPECT_TRUE(verified_redistribute(comm, from, to, options, 3).verified);
    EXPECT_EQ(comm_dups, after) << "communicator " << communicator;
    MPI_Comm_free(&comm);
  }
}

// Sets REDIST_MPI_ONCE_PIECE_BYTES in this process for its lifetime (every rank makes one).
class OncePieceBytes {
 public:
  explicit OncePieceBytes(const char* bytes) { setenv("REDIST_MPI_ONCE_PIECE_BYTES", bytes, 1); }
  ~OncePieceBytes() { unsetenv("REDIST_MPI_ONCE_PIECE_BYTES"); }
  OncePieceBytes(const OncePieceBytes&) = delete;
  OncePieceBytes& operator=(const OncePieceBytes&) = delete;
};

// Sources in one SharedArray on one node: each receiver copies straight out of the senders'
// storage (from the second call on a communicator), with results identical to pdgemr2d's — every
// message so when no piece is too short for it, some when the rule of the exchange keeps short
// pieces packed.
TEST(MpiSharedArray, SourcesInOneSharedArrayAreCopiedOnceAndAgreeWithPdgemr2d) {
  for (const char* min_piece : {"0", "64"}) {
    const OncePieceBytes setting(min_piece);
    std::mt19937_64 rng(77);  // the pairs of IdenticalToPdgemr2dOnThirtyRandomLayoutPairs
    const Index ranks = world_size();
    Index once = 0, moved = 0;
    for (int k = 0; k < 30; ++k) {
      const Index rows = pick(rng, 1, 90), cols = pick(rng, 1, 90);
      const auto from = random_descriptor(rng, rows, cols, pick(rng, 1, ranks));
      const auto to = random_descriptor(rng, rows, cols, pick(rng, 1, ranks));
      const auto result = compare_with_pdgemr2d(from, to, {8, "prylli", "async", RankMap::shared()}, 2, SourceStorage::Shared);
      EXPECT_TRUE(result.identical) << "pair " << k;
      EXPECT_TRUE(result.verified) << "pair " << k;
      if (std::string(min_piece) == "0") {
        EXPECT_EQ(result.bytes_copied_once, shared_memory_wanted() ? result.bytes_moved : 0) << "pair " << k;
      }
      once += result.bytes_copied_once;
      moved += result.bytes_moved;
    }
    if (shared_memory_wanted() && std::string(min_piece) == "64") {  // 9-element blocks at most: some pieces of 72 bytes
      EXPECT_GT(once, 0);
      EXPECT_LT(once, moved);
    }
  }
}

// The random cases of every kind (1-D and 2-D, 2 to 8 ranks, shared and disjoint grids: ranks that
// only receive read from the one SharedArray on their communicator), each the first call on a new
// communicator: from a SharedArray a first call copies once too.
TEST(MpiSharedArray, RandomCasesAreCopiedOnceAndVerify) {
  const OncePieceBytes setting("0");
  std::mt19937_64 rng(2026);
  for (int k = 0; k < 50; ++k) {
    const int ranks = 2 + k % 7;
    const RandomCase c = random_case(rng, ranks, k % 2 == 1);
    MPI_Comm comm = first_ranks(ranks);
    if (comm == MPI_COMM_NULL) continue;
    const auto run = verified_redistribute(comm, c.source, c.dest, {4, "prylli", "async", c.map}, 1, SourceStorage::Shared);
    EXPECT_TRUE(run.verified) << "case " << k << " misplaced " << run.misplaced;
    EXPECT_EQ(run.bytes_copied_once, shared_memory_wanted() ? run.bytes : 0) << "case " << k;
    MPI_Comm_free(&comm);
  }
}

// One copy needs every sender's source in the same SharedArray on the communicator's ranks:
// otherwise the call packs and unpacks every message, as right.
TEST(MpiSharedArray, AnySourceOutsideTheArrayMeansTwoCopies) {
  const OncePieceBytes setting("0");
  const Layout from = scalapack_layout({120, 90, 7, 5, 2, 4, 0, 0});
  const Layout to = scalapack_layout({120, 90, 3, 11, 4, 2, 1, 0});
  const Rank me = world_rank();
  SharedArray<double> shared(MPI_COMM_WORLD, from.local_size(me));
  std::vector<double> private_copy(static_cast<std::size_t>(from.local_size(me)));
  for (Index l = 0; l < shared.size(); ++l) {
    shared[l] = private_copy[static_cast<std::size_t>(l)] = static_cast<double>(from.global_index(me, l));
  }
  // Bytes copied once and bytes sent, all ranks together, of the second of two calls.
  const auto run = [&](bool private_on_rank_3) {
    std::vector<double> b(static_cast<std::size_t>(to.local_size(me)));
    const std::span<const double> a = private_on_rank_3 && me == 3 ? std::span<const double>(private_copy) : shared.span();
    RedistributeReport report;
    for (int call = 0; call < 2; ++call) {
      report = redistribute<double>(MPI_COMM_WORLD, from, to, a, b, {8, "prylli", "async", RankMap::shared()});
    }
    for (std::size_t l = 0; l < b.size(); ++l) {
      EXPECT_EQ(b[l], static_cast<double>(to.global_index(me, static_cast<Index>(l)))) << "rank " << me;
    }
    std::array<Index, 2> mine = {report.bytes_copied_once, report.bytes_sent}, all{};
    MPI_Allreduce(mine.data(), all.data(), 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return all;
  };
  const auto all_shared = run(false);
  EXPECT_GT(all_shared[1], 0);
  EXPECT_EQ(all_shared[0], shared_memory_wanted() ? all_shared[1] : 0);
  EXPECT_EQ(run(true)[0], 0);
  EXPECT_EQ(run(false)[0], all_shared[0]);
}

// Bad input throws std::invalid_argument with the same message on every rank (no rank left waiting).
void expect_error_everywhere(const std::function<void()>& call, const std::string& part) {
  std::string message;
  try {
    call();
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(part), std::string::npos) << "rank " << world_rank() << ": '" << message << "'";
  int length = static_cast<int>(message.size()), longest = 0;
  MPI_Allreduce(&length, &longest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(length, longest) << "ranks report different messages";
}

// A bad setting of the one-copy rule, or a SharedArray of a negative size on one rank: every rank
// fails with the same message.
TEST(MpiSharedArray, BadSettingsAndSizesFailOnEveryRankTogether) {
  const Layout layout = BlockCyclic(100, 4, world_size());
  std::vector<double> a(static_cast<std::size_t>(layout.local_size(world_rank()))), b(a.size());
  {
    const OncePieceBytes setting("64kB");
    expect_error_everywhere([&] { redistribute<double>(MPI_COMM_WORLD, layout, layout, a, b); },
                            "REDIST_MPI_ONCE_PIECE_BYTES is '64kB', not a number of bytes");
  }
  expect_error_everywhere([&] { SharedArray<double> bad(MPI_COMM_WORLD, world_rank() == 2 ? -5 : 10); },
                          "rank 2: SharedArray of a negative size");
  SharedArray<double> good(MPI_COMM_WORLD, 10);  // and the ranks go on together
  EXPECT_EQ(good.size(), 10);
}

TEST(MpiRedistribute, BadInputFailsOnEveryRankTogether) {
  const Index n = 1000;
  const int me = world_rank(), ranks = world_size();
  const Layout good = BlockCyclic(n, 4, ranks);
  std::vector<std::byte> from(static_cast<std::size_t>(good.local_size(me) * 8)), to(from.size());
  // Mismatched layouts: rank 3 was given another block size.
  const Layout odd = BlockCyclic(n, me == 3 ? 5 : 4, ranks);
  expect_error_everywhere([&] { redistribute(MPI_COMM_WORLD, good, odd, from, to); }, "different layouts or options");
  // A buffer too small on rank 2.
  std::vector<std::byte> short_buffer(me == 2 ? from.size() - 8 : from.size());
  expect_error_everywhere([&] { redistribute(MPI_COMM_WORLD, good, good, from, short_buffer); },
                          "rank 2: destination buffer holds");
  // Layouts that need more ranks than the communicator has.
  const Layout wide = BlockCyclic(n, 4, ranks + 3);
  expect_error_everywhere([&] { redistribute(MPI_COMM_WORLD, good, wide, from, to); }, "need 11 ranks");
  // An unknown method.
  expect_error_everywhere(
      [&] { redistribute(MPI_COMM_WORLD, good, good, from, to, {8, "fast", "async", RankMap::shared()}); },
      "unknown indexing method 'fast'");
  // And the communicator still works afterwards.
  const auto summary = verified_redistribute(MPI_COMM_WORLD, good, BlockCyclic(n, 7, ranks), {});
  EXPECT_TRUE(summary.verified);
}

// Plan + execute against redistribute(): the same destination bytes, on every rank, for a call and
// for a plan executed twice (its second execution reuses everything the first set up), then once
// more by execute_agreed (no agreement of its own).
bool plan_matches_redistribute(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  const Index eb = options.elem_bytes;
  const auto bytes = [&](const Layout& l, std::optional<Index> processor) {
    return static_cast<std::size_t>(processor ? l.local_size(*processor) * eb : 0);
  };
  const std::size_t source_bytes = bytes(source, options.ranks.source_of(me, source.processors()));
  const std::size_t dest_bytes = bytes(dest, options.ranks.dest_of(me, dest.processors()));
  std::vector<std::byte> from(source_bytes), by_call(dest_bytes), by_plan(dest_bytes);
  for (std::size_t i = 0; i < from.size(); ++i) from[i] = static_cast<std::byte>((i * 131 + static_cast<std::size_t>(me) * 7) % 251);
  redistribute(comm, source, dest, from, by_call, options);
  Plan plan(comm, source, dest, options);
  bool same = true;
  for (int k = 0; k < 3; ++k) {
    std::fill(by_plan.begin(), by_plan.end(), std::byte{0x5a});
    const RedistributeReport report = k < 2 ? plan.execute(from, by_plan) : plan.execute_agreed(from, by_plan);
    same = same && by_plan == by_call && report.phases.index == 0;
  }
  int mine = same ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

TEST(MpiPlan, ExecutesLikeRedistributeOnTheRandomCasesAndThePdgemr2dPairs) {
  ASSERT_EQ(world_size(), 8) << "run under mpirun -np 8";
  std::mt19937_64 rng(2026);  // the cases of FiftyRandomCasesVerifyUnderEveryMethodAndSchedule
  for (int k = 0; k < 50; ++k) {
    const int ranks = 2 + k % 7;
    const RandomCase c = random_case(rng, ranks, k % 2 == 1);
    MPI_Comm comm = first_ranks(ranks);
    if (comm == MPI_COMM_NULL) continue;
    for (const char* schedule : {"async", "caterpillar"}) {
      EXPECT_TRUE(plan_matches_redistribute(comm, c.source, c.dest, {4, "prylli", schedule, c.map})) << "case " << k;
    }
    MPI_Comm_free(&comm);
  }
  std::mt19937_64 pairs(77);  // the pairs of IdenticalToPdgemr2dOnThirtyRandomLayoutPairs
  for (int k = 0; k < 30; ++k) {
    const Index rows = pick(pairs, 1, 90), cols = pick(pairs, 1, 90);
    const auto from = random_descriptor(pairs, rows, cols, pick(pairs, 1, world_size()));
    const auto to = random_descriptor(pairs, rows, cols, pick(pairs, 1, world_size()));
    EXPECT_TRUE(plan_matches_redistribute(MPI_COMM_WORLD, scalapack_layout(from), scalapack_layout(to),
                                          {8, "prylli", "async", RankMap::shared()}))
        << "pair " << k;
  }
}

// Relabelled destinations on real MPI: every element lands where the relabelled
// layout puts it, and the exact assignment never sends more bytes than numbering the destination
// processors as they come — fewer on some pairs.
TEST(MpiRelabel, RelabelledRunsVerifyAndSendNoMoreBytes) {
  std::mt19937_64 rng(1818);
  int fewer = 0;
  for (int k = 0; k < 40; ++k) {
    const RandomCase c = random_case(rng, world_size(), k % 2 == 1);
    if (c.map.dest_first != 0) continue;  // relabelling places destinations among the sources' ranks
    const Options plain{8, "prylli", "async", RankMap::shared()};
    Options relabelled = plain;
    relabelled.ranks = relabelled_ranks(c.source, c.dest, RelabelMethod::Exact);
    const auto before = verified_redistribute(MPI_COMM_WORLD, c.source, c.dest, plain);
    const auto after = verified_redistribute(MPI_COMM_WORLD, c.source, c.dest, relabelled);
    EXPECT_TRUE(after.verified) << "case " << k << " misplaced " << after.misplaced;
    EXPECT_LE(after.bytes, before.bytes) << "case " << k;
    fewer += after.bytes < before.bytes;
  }
  EXPECT_GE(fewer, 5);
}

// A machine of one host per rank over a shared switch, where scanning elements is dear.
std::shared_ptr<const MachineModel> small_machine(Index hosts) {
  MachineModel m;
  m.prices.seconds[static_cast<std::size_t>(WorkKind::ElementScanned)] = 1e-8;
  m.prices.seconds[static_cast<std::size_t>(WorkKind::ByteCopied)] = 1e-10;
  m.prices.send_overhead = m.prices.recv_overhead = 1e-6;
  m.hosts = hosts;
  m.links.push_back({1e9, true});  // the switch
  for (Index h = 0; h < hosts; ++h) m.links.push_back({1e10, true});  // loopbacks
  for (Index a = 0; a < hosts; ++a) {
    for (Index b = 0; b < hosts; ++b) m.routes.push_back(a == b ? ModelRoute{{static_cast<std::size_t>(1 + a)}, 0} : ModelRoute{{0}, 2e-6});
  }
  return std::make_shared<const MachineModel>(std::move(m));
}

TEST(MpiRedistribute, AutoRelabellingChecksTheDestinationBufferAgainstEveryProcessorsPart) {
  // Which destination processor auto places on a rank is known only after the ranks agree: the
  // buffer must then be the size of some processor's part (an explicit relabelling is checked exactly).
  const Layout layout = BlockCyclic(4000, 10, world_size());
  std::vector<double> from(static_cast<std::size_t>(layout.local_size(world_rank()))), to(10);
  Options options{.relabel = "auto"};
  options.model = small_machine(world_size());
  try {
    redistribute<double>(MPI_COMM_WORLD, layout, layout, std::span<const double>(from), to, options);
    ADD_FAILURE() << "not refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the size of no destination processor's part (relabel auto"), std::string::npos)
        << e.what();
  }
}

TEST(MpiPlan, AutoRunsOneChoiceOnEveryRankAndMovesTheDataAsThatChoiceDoes) {
  const int me = world_rank(), ranks = world_size();
  const Layout source = BlockCyclic(50000, 3, ranks), dest = BlockCyclic(50000, 5, ranks);
  Options options{.indexing = "auto", .schedule = "auto", .relabel = "auto"};
  options.model = small_machine(ranks);
  Plan plan(MPI_COMM_WORLD, source, dest, options);
  const Options& chosen = plan.options();
  EXPECT_NE(chosen.indexing, "auto");
  EXPECT_NE(chosen.schedule, "auto");
  EXPECT_NE(chosen.indexing, "naive");  // it scans all 50,000 elements at 10 ns each
  const Options again = choose(MPI_COMM_WORLD, source, dest, options);
  EXPECT_EQ(again.indexing, chosen.indexing);
  EXPECT_EQ(again.schedule, chosen.schedule);
  EXPECT_EQ(again.relabel, chosen.relabel);
  EXPECT_EQ(again.ranks, chosen.ranks);
  // Every rank chose alike: the label's length and first letters agree everywhere.
  const std::string label = chosen.indexing + "/" + chosen.schedule + "/" + chosen.relabel;
  long mine[2] = {static_cast<long>(label.size()), static_cast<long>(label[0]) * 256 + label[label.size() / 2]};
  long low[2], high[2];
  MPI_Allreduce(mine, low, 2, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, high, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_TRUE(low[0] == high[0] && low[1] == high[1]);
  // The plan moves the data as the chosen options do, called directly.
  const auto q = chosen.ranks.dest_of(me, dest.processors());
  std::vector<double> from(static_cast<std::size_t>(source.local_size(me))), by_plan, by_call;
  for (std::size_t i = 0; i < from.size(); ++i) from[i] = static_cast<double>(source.global_index(me, static_cast<Index>(i)));
  by_plan.assign(q ? static_cast<std::size_t>(dest.local_size(*q)) : 0, -1.0);
  by_call = by_plan;
  plan.execute<double>(from, by_plan);
  Options direct = chosen;
  direct.model = nullptr;
  redistribute<double>(MPI_COMM_WORLD, source, dest, from, by_call, direct);
  EXPECT_EQ(by_plan, by_call);
  for (std::size_t l = 0; l < by_plan.size(); ++l) ASSERT_EQ(by_plan[l], static_cast<double>(dest.global_index(*q, static_cast<Index>(l))));
  options.model = nullptr;
  expect_error_everywhere([&] { Plan(MPI_COMM_WORLD, source, dest, options); }, "choosing by auto needs a machine model");
}

// `auto` relabels once per candidate relabelling and tries each schedule once per placement, and
// the plan takes the chosen ones as they are (before, one auto Plan on
// 8 ranks solved the exact assignment about four times and built schedules again to price them).
TEST(MpiPlan, AutoComputesEachRelabellingAndScheduleOnce) {
  const int ranks = world_size();
  const Layout source = BlockCyclic(50000, 3, ranks), dest = BlockCyclic(50000, 5, ranks);
  Options options{.indexing = "auto", .schedule = "auto", .relabel = "auto"};
  options.model = small_machine(ranks);
  Index strategies = 0;
  for (const ScheduleChoice choice : schedule_names().values()) strategies += choice.has_value() ? 1 : 0;
  // Three placements (none, exact, greedy), two of them relabelled; every strategy tried on each.
  const Index relabellings = 2, schedules = 3 * strategies;
  const auto counted = [&](const char* what, const std::function<void()>& call) {
    const Index relabelled = relabellings_computed(), built = layout_schedules_asked();
    call();
    const Index r = relabellings_computed() - relabelled, s = layout_schedules_asked() - built;
    if (world_rank() == 0) std::cout << what << ": " << r << " relabellings, " << s << " schedules asked\n";
    EXPECT_EQ(r, relabellings) << what;
    EXPECT_EQ(s, schedules) << what;
  };
  Options chosen;
  counted("auto Plan", [&] { chosen = Plan(MPI_COMM_WORLD, source, dest, options).options(); });
  counted("auto choose", [&] { EXPECT_EQ(choose(MPI_COMM_WORLD, source, dest, options).ranks, chosen.ranks); });
  counted("auto choose, kept plan", [&] { choose(MPI_COMM_WORLD, source, dest, options, true); });
  // Nothing left to choose: the plan relabels once and builds its schedule once.
  const Index relabelled = relabellings_computed(), built = layout_schedules_asked();
  Options fixed{8, "prylli", "caterpillar", RankMap::shared()};
  fixed.relabel = "exact";
  Plan plan(MPI_COMM_WORLD, source, dest, fixed);
  EXPECT_EQ(relabellings_computed() - relabelled, 1);
  EXPECT_EQ(layout_schedules_asked() - built, 1);
  EXPECT_EQ(plan.options().ranks, relabelled_ranks(source, dest, RelabelMethod::Exact));
}

TEST(MpiPlan, BadBuffersOrElementTypesFailOnEveryRankTogether) {
  const int me = world_rank(), ranks = world_size();
  const Layout layout = BlockCyclic(1000, 4, ranks), other = BlockCyclic(1000, 7, ranks);
  Plan plan(MPI_COMM_WORLD, layout, other, {8, "prylli", "async", RankMap::shared()});
  std::vector<double> a(static_cast<std::size_t>(layout.local_size(me))), b(static_cast<std::size_t>(other.local_size(me)));
  std::vector<double> short_b(me == 5 ? b.size() - 1 : b.size());
  expect_error_everywhere([&] { plan.execute<double>(a, short_b); }, "rank 5: destination buffer holds");
  std::vector<float> fa(a.size() * 2), fb(b.size() * 2);  // the right bytes, the wrong element type
  expect_error_everywhere([&] { plan.execute<float>(fa, fb); }, "elements of 4 bytes given to a plan for 8-byte");
  EXPECT_THROW(Plan(MPI_COMM_WORLD, layout, other, {8, "fast", "async", RankMap::shared()}), std::invalid_argument);
  EXPECT_EQ(plan.execute<double>(a, b).phases.index, 0);  // and the plan still works
}

}  // namespace
}  // namespace redist::mpi
