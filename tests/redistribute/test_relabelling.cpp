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

}  // namespace
}  // namespace redist
