// Process relabelling: the exact assignment keeps at least as much data local as COSTA's greedy
// pass on every one of 200 random layout pairs (P, Q <= 64), strictly more on some, and is optimal
// against a scan of every assignment on small grids.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <numeric>
#include <random>
#include <set>

#include "redist/layout/multi_dim.hpp"
#include "redist/redistribute/input_checks.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/schedule/layout_lengths.hpp"

namespace redist {
namespace {

Layout random_layout(std::mt19937_64& rng, bool two_d, Index rows, Index cols, Index max_procs) {
  std::uniform_int_distribution<Index> block(1, 12);
  if (!two_d) return BlockCyclic(rows * cols, block(rng), std::uniform_int_distribution<Index>(1, max_procs)(rng));
  const Index pr = std::uniform_int_distribution<Index>(1, 8)(rng), pc = std::uniform_int_distribution<Index>(1, 8)(rng);
  return MultiDimLayout({DimMapping::distributed(BlockCyclic(rows, block(rng), std::min(pr, max_procs))),
                         DimMapping::distributed(BlockCyclic(cols, block(rng), std::max<Index>(1, std::min(pc, max_procs / std::min(pr, max_procs)))))},
                        StorageOrder::ColumnMajor);
}

// A valid relabelling: every destination processor on its own rank among max(P, Q), and `kept` what
// it says.
void expect_valid(const LengthMatrix& v, const Relabelling& r) {
  const Index ranks = std::max(v.P(), v.Q());
  ASSERT_EQ(static_cast<Index>(r.rank_of_dest.size()), v.Q());
  std::set<Index> used(r.rank_of_dest.begin(), r.rank_of_dest.end());
  EXPECT_EQ(static_cast<Index>(used.size()), v.Q());
  EXPECT_GE(*used.begin(), 0);
  EXPECT_LT(*used.rbegin(), ranks);
  Index kept = 0;
  for (Index q = 0; q < v.Q(); ++q) {
    const Index rank = r.rank_of_dest[static_cast<std::size_t>(q)];
    if (rank < v.P()) kept += v.at(rank, q);
  }
  EXPECT_EQ(kept, r.kept);
}

TEST(Relabelling, ExactKeepsAtLeastWhatGreedyKeepsOnTwoHundredRandomPairs) {
  std::mt19937_64 rng(1818);
  int strictly_more = 0;
  double gain = 0;
  for (int k = 0; k < 200; ++k) {
    const bool two_d = k % 2 == 1;
    const Index rows = std::uniform_int_distribution<Index>(1, 60)(rng), cols = std::uniform_int_distribution<Index>(1, 60)(rng);
    const Layout source = random_layout(rng, two_d, rows, cols, 64), dest = random_layout(rng, two_d, rows, cols, 64);
    const LengthMatrix volumes = message_lengths(source, dest);
    const Relabelling exact = relabel_exact(volumes), greedy = relabel_greedy(volumes);
    expect_valid(volumes, exact);
    expect_valid(volumes, greedy);
    EXPECT_GE(exact.kept, greedy.kept) << "pair " << k;
    EXPECT_GE(exact.kept, kept_without_relabelling(volumes)) << "pair " << k;
    if (exact.kept > greedy.kept) {
      ++strictly_more;
      gain += static_cast<double>(exact.kept - greedy.kept) / static_cast<double>(std::max<Index>(1, greedy.kept));
    }
  }
  std::cout << "exact keeps more than greedy on " << strictly_more << " of 200 pairs, by "
            << (strictly_more > 0 ? 100 * gain / strictly_more : 0) << "% on average there\n";
  EXPECT_GT(strictly_more, 0);
}

TEST(Relabelling, ExactIsTheBestOfEveryAssignmentOnSmallGrids) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 60; ++k) {
    const Index P = std::uniform_int_distribution<Index>(1, 6)(rng), Q = std::uniform_int_distribution<Index>(1, 6)(rng);
    LengthMatrix volumes(P, Q);
    for (Index p = 0; p < P; ++p) {
      for (Index q = 0; q < Q; ++q) volumes.set(p, q, std::uniform_int_distribution<Index>(0, 3)(rng) == 0 ? 0 : std::uniform_int_distribution<Index>(1, 100)(rng));
    }
    // Every injective map of the Q destination processors into the max(P, Q) ranks.
    std::vector<Index> ranks(static_cast<std::size_t>(std::max(P, Q)));
    std::iota(ranks.begin(), ranks.end(), 0);
    Index best = 0;
    do {
      Index kept = 0;
      for (Index q = 0; q < Q; ++q) {
        const Index rank = ranks[static_cast<std::size_t>(q)];
        if (rank < P) kept += volumes.at(rank, q);
      }
      best = std::max(best, kept);
    } while (std::next_permutation(ranks.begin(), ranks.end()));
    const Relabelling exact = relabel_exact(volumes);
    expect_valid(volumes, exact);
    EXPECT_EQ(exact.kept, best) << "case " << k;
  }
}

TEST(RelabelledRankMap, PlacesEachDestinationProcessorOnItsRank) {
  const RankMap ranks = RankMap::relabelled({2, 0, 3, 1});
  EXPECT_TRUE(ranks.is_relabelled());
  EXPECT_EQ(ranks.dest_rank(0), 2);
  EXPECT_EQ(ranks.dest_rank(3), 1);
  EXPECT_EQ(ranks.dest_of(2, 4), std::optional<Index>(0));
  EXPECT_EQ(ranks.dest_of(1, 4), std::optional<Index>(3));
  EXPECT_EQ(ranks.dest_of(4, 4), std::nullopt);
  EXPECT_EQ(ranks.source_of(3, 4), std::optional<Index>(3));
  EXPECT_EQ(ranks.ranks_needed(4, 4), 4);
  EXPECT_EQ(ranks.ranks_needed(2, 4), 4);
  EXPECT_EQ(RankMap::relabelled({5, 0}).ranks_needed(3, 2), 6);
  EXPECT_FALSE(RankMap::shared() == ranks);
}

TEST(RelabelledRankMap, BadRelabellingsAreRefusedWithOneLine) {
  const Layout source = BlockCyclic(100, 3, 4), dest = BlockCyclic(100, 5, 4);
  RedistributeOptions options;
  options.ranks = RankMap::relabelled({0, 1, 2});
  EXPECT_NE(call_problem(source, dest, options, 4).find("places 3 destination processors, the layout has 4"),
            std::string::npos);
  options.ranks = RankMap::relabelled({0, 1, 1, 2});
  EXPECT_NE(call_problem(source, dest, options, 4).find("two destination processors placed on rank 1"), std::string::npos);
  options.ranks = RankMap::relabelled({0, 1, 2, 7});
  EXPECT_NE(call_problem(source, dest, options, 4).find("outside the run's 4 ranks"), std::string::npos);
  options.ranks = RankMap::relabelled({0, 1, 2, -1});
  EXPECT_NE(call_problem(source, dest, options, 4).find("placed on rank -1"), std::string::npos);
  options.ranks = RankMap::relabelled({3, 2, 1, 0});
  EXPECT_EQ(call_problem(source, dest, options, 4), "");
}

// The volumes are the exact counts of an owner scan (message_lengths of two layouts it cannot
// take apart: one of them seen as 2-D with a single column) for random 1-D and 2-D pairs, sizes
// multiples of the period or not, first processors anywhere.
TEST(RelabellingVolumes, AreTheExactCountsOfAnOwnerScan) {
  std::mt19937_64 rng(2025);
  const auto exact_count = [](const Layout& source, const Layout& dest) {
    LengthMatrix counts(source.processors(), dest.processors());
    for (Index g = 0; g < source.size(); ++g) counts.add(source.owner(g), dest.owner(g), 1);
    return counts;
  };
  for (int k = 0; k < 80; ++k) {
    std::uniform_int_distribution<Index> block(1, 7), grid(1, 5), extent(1, 90);
    Layout source = BlockCyclic(1, 1, 1), dest = BlockCyclic(1, 1, 1);
    if (k % 2 == 0) {
      const Index N = extent(rng) * extent(rng);
      const Index P = grid(rng), Q = grid(rng);
      source = BlockCyclic(N, block(rng), P, std::uniform_int_distribution<Index>(0, P - 1)(rng));
      dest = BlockCyclic(N, block(rng), Q, std::uniform_int_distribution<Index>(0, Q - 1)(rng));
    } else {
      const Index rows = extent(rng), cols = extent(rng);
      source = MultiDimLayout({DimMapping::distributed(BlockCyclic(rows, block(rng), grid(rng))),
                               DimMapping::distributed(BlockCyclic(cols, block(rng), grid(rng)))},
                              StorageOrder::ColumnMajor);
      dest = MultiDimLayout({DimMapping::distributed(BlockCyclic(rows, block(rng), grid(rng))),
                             DimMapping::distributed(BlockCyclic(cols, block(rng), grid(rng)))},
                            StorageOrder::RowMajor);
    }
    EXPECT_EQ(relabelling_volumes(source, dest), exact_count(source, dest)) << "pair " << k;
  }
}

TEST(RelabelledRanks, ExactKeepsMoreThanTheIdentityWhereItCan) {
  // CYCLIC(3) -> CYCLIC(5) on 8: processor q's data sits mostly on other ranks (paper 004's grid).
  const Layout source = BlockCyclic(120000, 3, 8), dest = BlockCyclic(120000, 5, 8);
  const LengthMatrix v = relabelling_volumes(source, dest);
  for (const RelabelMethod method : {RelabelMethod::Exact, RelabelMethod::Greedy}) {
    const RankMap ranks = relabelled_ranks(source, dest, method);
    ASSERT_TRUE(ranks.is_relabelled());
    Index kept = 0;
    for (Index q = 0; q < 8; ++q) kept += v.at(ranks.dest_rank(q), q);
    EXPECT_GT(kept, kept_without_relabelling(v)) << relabel_method_names().name_of(method);
  }
  EXPECT_FALSE(relabelled_ranks(source, dest, RelabelMethod::None).is_relabelled());
  EXPECT_THROW(relabel_method_names().from_name("best"), std::invalid_argument);
}

// The work relabelling counts, by hand. CYCLIC(2) on 2 -> CYCLIC(3) on 2, N = 23: one period of
// lcm(4, 6) = 12 from paper 004's grid (2 x 2 entries), then the rest [12, 23) stretch by stretch,
// a stretch ending where a block of either layout does: [12,14) [14,15) [15,16) [16,18) [18,20)
// [20,21) [21,22) [22,23), 8 stretches of 3 index operations; the assignment weighs 2 x 2 pairs.
TEST(RelabelledRanks, CountTheirWorkAsCountedByHand) {
  const Layout source = BlockCyclic(23, 2, 2), dest = BlockCyclic(23, 3, 2);
  for (const RelabelMethod method : {RelabelMethod::Exact, RelabelMethod::Greedy}) {
    Work counted;
    relabelled_ranks(source, dest, method, counted);
    EXPECT_EQ(counted.count(WorkKind::IndexOp), 24) << relabel_method_names().name_of(method);
    EXPECT_EQ(counted.count(WorkKind::TableEntry), 4 + 4);
    EXPECT_EQ(counted.count(WorkKind::ElementScanned), 0);
  }
  Work whole_periods;  // N = 24: two periods, no rest to count
  relabelled_ranks(BlockCyclic(24, 2, 2), BlockCyclic(24, 3, 2), RelabelMethod::Exact, whole_periods);
  EXPECT_EQ(whole_periods.count(WorkKind::IndexOp), 0);
  EXPECT_EQ(whole_periods.count(WorkKind::TableEntry), 8);
  // Two 7 x 5 matrices on 2 x 2 and 1 x 3 grids: each dimension's extent scanned once (7 + 5), the
  // 4 x 3 volumes, the 4 ranks x 3 destination processors the assignment weighs.
  const Layout a = MultiDimLayout({DimMapping::distributed(BlockCyclic(7, 2, 2)), DimMapping::distributed(BlockCyclic(5, 1, 2))},
                                  StorageOrder::RowMajor);
  const Layout b = MultiDimLayout({DimMapping::distributed(BlockCyclic(7, 3, 1)), DimMapping::distributed(BlockCyclic(5, 2, 3))},
                                  StorageOrder::RowMajor);
  Work two_d;
  relabelled_ranks(a, b, RelabelMethod::Greedy, two_d);
  EXPECT_EQ(two_d.count(WorkKind::ElementScanned), 7 + 5);
  EXPECT_EQ(two_d.count(WorkKind::TableEntry), 4 * 3 + 4 * 3);
  Work none;
  relabelled_ranks(source, dest, RelabelMethod::None, none);
  for (std::size_t k = 0; k < kWorkKinds; ++k) EXPECT_EQ(none.count(static_cast<WorkKind>(k)), 0);
}

}  // namespace
}  // namespace redist
