// The indexing methods: every registered one makes the same plans as the naive owner scan on random
// 1-D redistributions (any N, P != Q, shared, disjoint and overlapping ranks); the work the periodic
// ones (Krr, PITFALLS, Prylli) count — Krr's independent of N, PITFALLS' intersections growing with k.
#include <gtest/gtest.h>

#include <random>

#include "every_indexing_method.hpp"
#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/naive_indexing.hpp"
#include "redist/indexing/pitfalls_indexing.hpp"
#include "redist/indexing/prylli_indexing.hpp"

namespace redist {
namespace {

using test::every_indexing_method;

// The methods that index one cycle of a 1-D block-cyclic pair and repeat it (periodic_plan.hpp).
const std::vector<std::string> kPeriodicMethods = {"krr", "pitfalls", "prylli"};

void expect_same_peers(const std::vector<PeerPlan>& got, const std::vector<PeerPlan>& want, bool materialised) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    EXPECT_EQ(got[k].peer, want[k].peer);
    EXPECT_EQ(got[k].elements, want[k].elements) << "peer " << want[k].peer;
    EXPECT_EQ(got[k].run_count, want[k].run_count) << "peer " << want[k].peer;
    EXPECT_EQ(got[k].record_count, want[k].record_count) << "peer " << want[k].peer;
    if (materialised) {
      EXPECT_EQ(got[k].runs, want[k].runs) << "peer " << want[k].peer;
      EXPECT_EQ(got[k].record_count, static_cast<Index>(got[k].runs.size())) << "peer " << want[k].peer;
    }
    EXPECT_GE(got[k].extra_copies, 0);  // pieces never fewer than runs
  }
}

void expect_plans_like_naive(const IndexingMethod& method, const BlockCyclic& source, const BlockCyclic& dest,
                             const RankMap& ranks, const std::string& what) {
  SCOPED_TRACE(std::string(method.name) + ": " + what);
  const Rank size = static_cast<Rank>(ranks.ranks_needed(source.procs(), dest.procs()));
  for (Rank me = 0; me < size; ++me) {
    RankPlan listed;  // materialised first: the records a count must come to
    for (const bool materialise : {true, false}) {
      Work naive_work, work;
      const RankPlan want = naive_plan(source, dest, ranks, me, materialise, naive_work);
      const RankPlan got = make_plan(method, source, dest, ranks, me, materialise, work);
      expect_same_peers(got.sends, want.sends, materialise);
      expect_same_peers(got.receives, want.receives, materialise);
      if (materialise) listed = got;
      for (const auto& [counted, full] : {std::pair{&got.sends, &listed.sends}, {&got.receives, &listed.receives}}) {
        ASSERT_EQ(counted->size(), full->size());
        for (std::size_t k = 0; k < full->size(); ++k) {
          EXPECT_EQ((*counted)[k].record_count, static_cast<Index>((*full)[k].runs.size())) << "peer " << (*full)[k].peer;
        }
      }
      EXPECT_EQ(got.unpack_order, method.unpack_order);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

RankMap random_ranks(std::mt19937_64& rng, Index P, Index Q) {
  switch (rng() % 4) {
    case 0: return RankMap::shared();
    case 1: return RankMap::disjoint(P);
    case 2: return {0, static_cast<Index>(rng() % static_cast<std::uint64_t>(P + 1))};  // overlapping
    default: return {static_cast<Index>(rng() % static_cast<std::uint64_t>(Q + 1)), 0};
  }
}

Index below(std::mt19937_64& rng, Index bound) { return static_cast<Index>(rng() % static_cast<std::uint64_t>(bound)); }

// One random redistribution; `kr` forces one block size to divide the other.
std::pair<BlockCyclic, BlockCyclic> random_pair(std::mt19937_64& rng, bool kr) {
  const Index P = 1 + below(rng, 7), Q = 1 + below(rng, 7);
  Index r = 1 + below(rng, 9), s = 1 + below(rng, 9);
  if (kr && rng() % 2) r = s * (1 + below(rng, 4));
  if (kr && r % s != 0) s = r * (1 + below(rng, 4));
  const Index cycle = std::lcm(P * r, Q * s);
  // Short arrays, whole cycles, and cycles plus a ragged tail.
  const Index N = rng() % 3 == 0 ? 1 + below(rng, cycle) : cycle * (1 + below(rng, 3)) + below(rng, 2 * cycle);
  return {BlockCyclic(N, r, P, below(rng, P)), BlockCyclic(N, s, Q, below(rng, Q))};
}

TEST(Indexing, EveryMethodPlansLikeTheNaiveScan) {
  for (const IndexingMethod& method : every_indexing_method()) {
    std::mt19937_64 rng(77);
    for (int n = 0; n < 320; ++n) {
      // A method that takes some block sizes only (Krr: kr <-> r) is given those.
      const auto [source, dest] = random_pair(rng, method.takes != nullptr);
      if (!method_takes(method, source, dest)) continue;
      const RankMap ranks = random_ranks(rng, source.procs(), dest.procs());
      expect_plans_like_naive(method, source, dest, ranks,
                              "N=" + std::to_string(source.size()) + " BC(" + std::to_string(source.block_size()) + ")/" +
                                  std::to_string(source.procs()) + " -> BC(" + std::to_string(dest.block_size()) + ")/" +
                                  std::to_string(dest.procs()) + " ranks {" + std::to_string(ranks.source_first) + "," +
                                  std::to_string(ranks.dest_first) + "}");
      if (HasFailure()) return;
    }
  }
}

// Counting records without listing them (RecordCounter, and the periodic methods' cycle by cycle
// count that stops once a cycle repeats the one before): as many as the listed runs, over arrays of
// hundreds of cycles with ragged tails.
TEST(Indexing, RecordsCountedOverManyCyclesAreTheListedRuns) {
  std::mt19937_64 rng(2026);
  for (int n = 0; n < 200; ++n) {
    const Index P = 1 + below(rng, 6), Q = 1 + below(rng, 6), r = 1 + below(rng, 12), s = 1 + below(rng, 12);
    const Index cycle = std::lcm(P * r, Q * s);
    const Index N = cycle * (100 + below(rng, 200)) + below(rng, cycle);
    const BlockCyclic source(N, r, P, below(rng, P)), dest(N, s, Q, below(rng, Q));
    const RankMap ranks = random_ranks(rng, P, Q);
    const Rank me = static_cast<Rank>(below(rng, ranks.ranks_needed(P, Q)));
    for (const std::string& name : kPeriodicMethods) {
      const IndexingMethod& method = indexing_method(name);
      if (!method_takes(method, source, dest)) continue;
      Work work;
      const RankPlan listed = make_plan(method, source, dest, ranks, me, true, work);
      const RankPlan counted = make_plan(method, source, dest, ranks, me, false, work);
      for (const auto& [c, l] : {std::pair{&counted.sends, &listed.sends}, {&counted.receives, &listed.receives}}) {
        ASSERT_EQ(c->size(), l->size());
        for (std::size_t k = 0; k < l->size(); ++k) {
          EXPECT_EQ((*c)[k].record_count, static_cast<Index>((*l)[k].runs.size()))
              << name << " N=" << N << " P=" << P << " r=" << r << " Q=" << Q << " s=" << s << " me=" << me;
        }
      }
    }
  }
}

// One source processor: each destination rank receives its whole array as one run growing cycle
// by cycle, and each message goes out as one strided record. Counted on 10^13 elements (a run of
// 2.5·10^12), as on a few cycles: in a few cycles, not one by one (which would not end in time).
TEST(Indexing, RecordsOfAGrowingRunAreCountedWithoutVisitingEveryCycle) {
  const Index cycle = 4 * 121 * 9, huge = Index{10'000'000'000'000} + 1234, few = 3 * cycle + huge % cycle;
  for (const std::string& name : kPeriodicMethods) {
    const IndexingMethod& method = indexing_method(name);
    if (!method_takes(method, BlockCyclic(huge, 9, 1), BlockCyclic(huge, 121, 4))) continue;
    for (Rank me = 0; me < 4; ++me) {
      Work work;
      const RankPlan counted = make_plan(method, BlockCyclic(huge, 9, 1), BlockCyclic(huge, 121, 4), RankMap::shared(),
                                         me, false, work);
      const RankPlan listed = make_plan(method, BlockCyclic(few, 9, 1), BlockCyclic(few, 121, 4), RankMap::shared(),
                                        me, true, work);
      ASSERT_EQ(counted.receives.size(), 1u) << name;
      EXPECT_EQ(counted.receives[0].record_count, 1) << name << " rank " << me;
      ASSERT_EQ(counted.sends.size(), listed.sends.size()) << name;
      for (std::size_t k = 0; k < listed.sends.size(); ++k) {
        EXPECT_EQ(counted.sends[k].record_count, static_cast<Index>(listed.sends[k].runs.size())) << name << " peer " << k;
      }
    }
  }
}

// RecordCounter keeps the last records only: on random pieces, in order or not, touching or not,
// of equal lengths or not, it counts as many records as append_piece lists.
TEST(Indexing, RecordCounterCountsAsManyRecordsAsAppendPieceLists) {
  std::mt19937_64 rng(5);
  for (int n = 0; n < 500; ++n) {
    redist::RunList runs;  // gtest's Test::Run hides the type here
    RecordCounter counter;
    Index at = 0;
    const Index lengths = 1 + below(rng, 3), gaps = 1 + below(rng, 4);
    for (int k = 0; k < 300; ++k) {
      const Index length = 1 + below(rng, lengths);
      at = rng() % 8 == 0 ? below(rng, 1000) : at + below(rng, gaps);  // now and then anywhere
      append_piece(runs, at, length);
      counter.add(at, length);
      at += length;
      ASSERT_EQ(counter.count(), static_cast<Index>(runs.size())) << "case " << n << " piece " << k;
    }
  }
}

TEST(Indexing, ThePaperConfigurationPlansLikeTheNaiveScan) {
  for (const IndexingMethod& method : every_indexing_method()) {
    for (const Index N : {Index{4000}, Index{4000} + 123}) {
      expect_plans_like_naive(method, BlockCyclic(N, 10, 50), BlockCyclic(N, 2, 40), RankMap::shared(), "kr->r");
      expect_plans_like_naive(method, BlockCyclic(N, 2, 40), BlockCyclic(N, 10, 50), RankMap::disjoint(40), "r->kr");
    }
  }
}

Work rank_work(const std::string& method, Index N, Index r, Index s, Index Q = 40) {
  Work work;
  make_plan(indexing_method(method), BlockCyclic(N, r, 50), BlockCyclic(N, s, Q), RankMap::shared(), 0, false, work);
  return work;
}

TEST(Indexing, IndexWorkOfThePeriodicMethodsDoesNotGrowWithN) {
  for (const std::string& method : kPeriodicMethods) {
    for (const auto& [r, s] : {std::pair<Index, Index>{10, 2}, {2, 10}}) {
      const Work small = rank_work(method, 2000 * 8, r, s), large = rank_work(method, 2000 * 8192 + 5, r, s);
      for (std::size_t k = 0; k < kWorkKinds; ++k) {
        EXPECT_EQ(small.count(static_cast<WorkKind>(k)), large.count(static_cast<WorkKind>(k))) << method;
      }
    }
  }
  Work naive_small, naive_large;
  naive_plan(BlockCyclic(16000, 10, 50), BlockCyclic(16000, 2, 40), RankMap::shared(), 0, false, naive_small);
  naive_plan(BlockCyclic(160000, 10, 50), BlockCyclic(160000, 2, 40), RankMap::shared(), 0, false, naive_large);
  EXPECT_EQ(naive_large.count(WorkKind::ElementScanned), 10 * naive_small.count(WorkKind::ElementScanned));
}

TEST(Indexing, IntersectionsGrowWithKButKrrTablesDoNot) {
  Index previous_pitfalls = 0, previous_prylli = 0;
  // Intersections are counted over one cycle lcm(P·kr, Q·r). With Q = 41, prime to P·k, the cycle
  // is P·Q·kr and the intersections of a processor grow as k (with Q = 40 the cycle, hence the
  // count, is the same for k = 25, 50 and 100).
  for (const Index k : {5, 25, 50, 100}) {
    const Index N = 2 * k * 50 * 41 * 3;
    const Work pitfalls = rank_work("pitfalls", N, 2 * k, 2, 41), prylli = rank_work("prylli", N, 2 * k, 2, 41);
    const Work krr = rank_work("krr", N, 2 * k, 2, 41);
    EXPECT_GT(pitfalls.count(WorkKind::Intersection), previous_pitfalls) << "k=" << k;
    EXPECT_GT(prylli.count(WorkKind::Intersection), previous_prylli) << "k=" << k;
    previous_pitfalls = pitfalls.count(WorkKind::Intersection);
    previous_prylli = prylli.count(WorkKind::Intersection);
    EXPECT_EQ(krr.count(WorkKind::Intersection), 0);
    EXPECT_LT(krr.count(WorkKind::TableEntry) + krr.count(WorkKind::IndexOp),
              pitfalls.count(WorkKind::Intersection) + pitfalls.count(WorkKind::IndexOp));
  }
}

TEST(Indexing, PitfallsTurnsEachIntersectionIntoALocalAddress) {
  Work pitfalls, prylli;
  pitfalls_plan(BlockCyclic(4000, 10, 50), BlockCyclic(4000, 2, 40), RankMap::disjoint(50), 0, false, pitfalls);
  prylli_plan(BlockCyclic(4000, 10, 50), BlockCyclic(4000, 2, 40), RankMap::disjoint(50), 0, false, prylli);
  // P0's cycle of 40 elements: 4 blocks of 10, 20 intersections with the destinations' blocks of 2.
  EXPECT_EQ(pitfalls.count(WorkKind::Intersection), 20);
  // Prylli also counts the tests of blocks that do not meet: per destination, the scan passes its
  // blocks and P0's until one cursor leaves the cycle.
  EXPECT_GT(prylli.count(WorkKind::Intersection), 40 * 20);
  EXPECT_EQ(prylli.count(WorkKind::IndexOp), 0);
  // Per peer: its FALLS (1), the candidate range for each of our 4 segments (2 each); then the
  // 20 local addresses.
  EXPECT_EQ(pitfalls.count(WorkKind::IndexOp), 40 * (1 + 4 * 2) + 20);
}

TEST(Indexing, KrrTablesSaveCopiesThatIntersectionsSplit) {
  // BC(2) over 2 -> BC(8) over 3: each destination block takes two source blocks of one sender,
  // consecutive in its local storage. Krr copies them at once; intersections copy them apart.
  Work work;
  const BlockCyclic source(96, 2, 2), dest(96, 8, 3);
  const RankPlan krr = krr_plan(source, dest, RankMap::shared(), 0, false, work);
  const RankPlan prylli = prylli_plan(source, dest, RankMap::shared(), 0, false, work);
  ASSERT_EQ(krr.sends.size(), prylli.sends.size());
  for (std::size_t k = 0; k < krr.sends.size(); ++k) {
    EXPECT_EQ(krr.sends[k].extra_copies, 0);
    EXPECT_GT(prylli.sends[k].extra_copies, 0);
  }
}

TEST(Indexing, OtherLayoutsAreRefusedClearly) {
  const Layout one_d = BlockCyclic(64, 4, 2);
  const Layout two_d = MultiDimLayout({DimMapping::distributed(BlockCyclic(8, 2, 2)), DimMapping::collapsed(8)});
  for (const std::string& method : kPeriodicMethods) {
    Work work;
    try {
      indexing_method(method).plan(one_d, two_d, RankMap::shared(), 0, true, work);
      ADD_FAILURE() << method << " accepted a 2-D layout";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("1-D block-cyclic"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(method), std::string::npos) << e.what();
    }
  }
  Work work;
  EXPECT_THROW(krr_plan(BlockCyclic(60, 3, 2), BlockCyclic(60, 2, 4), RankMap::shared(), 9, true, work),
               std::invalid_argument);
}

// Paper 000, section 5: Krr unpacks as messages arrive, PITFALLS and Prylli wait for each source
// rank in turn; the naive scan is unpacked as it arrives.
TEST(Indexing, UnpackOrdersAreThePapers) {
  EXPECT_EQ(indexing_method("naive").unpack_order, UnpackOrder::Arrival);
  EXPECT_EQ(indexing_method("krr").unpack_order, UnpackOrder::Arrival);
  EXPECT_EQ(indexing_method("pitfalls").unpack_order, UnpackOrder::SourceRank);
  EXPECT_EQ(indexing_method("prylli").unpack_order, UnpackOrder::SourceRank);
}

TEST(Indexing, UnknownNamesListTheRegistry) {
  try {
    indexing_method("quick");
    FAIL() << "unknown method accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown indexing method 'quick' (known: naive, krr, pitfalls, prylli", 0), 0u)
        << e.what();
  }
  EXPECT_THROW(register_indexing_method(indexing_method("krr")), std::invalid_argument);
}

TEST(Indexing, KrrTakesKrToROnly) {
  EXPECT_TRUE(krr_takes(BlockCyclic(60, 6, 2), BlockCyclic(60, 2, 4)));
  EXPECT_TRUE(krr_takes(BlockCyclic(60, 2, 2), BlockCyclic(60, 6, 4)));
  EXPECT_FALSE(krr_takes(BlockCyclic(60, 3, 2), BlockCyclic(60, 2, 4)));
  Work work;
  EXPECT_THROW(krr_plan(BlockCyclic(60, 3, 2), BlockCyclic(60, 2, 4), RankMap::shared(), 0, true, work),
               std::invalid_argument);
}

}  // namespace
}  // namespace redist
