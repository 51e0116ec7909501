// The bytes each rank's call touches (redist/indexing/touched_bytes.hpp) against an element scan:
// every element of the source and of the destination counted on the rank that holds it, twice
// (the arrays, and buffers as large), on random layouts and placements.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "redist/indexing/touched_bytes.hpp"
#include "redist/layout/block_cyclic.hpp"

namespace redist {
namespace {

TEST(TouchedBytes, EqualsAnElementScanOnRandomLayoutsAndPlacements) {
  std::mt19937_64 random(71);
  const auto between = [&random](Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(random); };
  for (int trial = 0; trial < 60; ++trial) {
    const Index N = between(1, 5000), P = between(1, 6), Q = between(1, 6), eb = between(1, 16);
    const Layout source = BlockCyclic(N, between(1, 40), P), dest = BlockCyclic(N, between(1, 40), Q);
    RankMap placed = RankMap::shared();
    if (trial % 3 == 1) placed = RankMap::disjoint(P);
    if (trial % 3 == 2) {
      std::vector<Index> ranks(static_cast<std::size_t>(std::max(P, Q)));
      std::iota(ranks.begin(), ranks.end(), Index{0});
      std::shuffle(ranks.begin(), ranks.end(), random);
      ranks.resize(static_cast<std::size_t>(Q));
      placed = RankMap::relabelled(ranks);
    }
    const Index ranks = placed.ranks_needed(P, Q);
    std::vector<double> scanned(static_cast<std::size_t>(ranks), 0.0);
    for (Index g = 0; g < N; ++g) {
      scanned[static_cast<std::size_t>(placed.source_rank(source.owner(g)))] += 2.0 * static_cast<double>(eb);
      scanned[static_cast<std::size_t>(placed.dest_rank(dest.owner(g)))] += 2.0 * static_cast<double>(eb);
    }
    EXPECT_EQ(touched_bytes(source, dest, placed, ranks, eb), scanned) << "trial " << trial;
  }
}

// A submatrix copy: each grid process's share of its local A and B, m·n / (M·N) of each.
TEST(TouchedBytes, ASubmatrixCopyTakesItsShareOfEachLocalMatrix) {
  std::mt19937_64 random(72);
  const auto between = [&random](Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(random); };
  for (int trial = 0; trial < 30; ++trial) {
    const Index ranks = between(1, 8);
    const auto stored = [&](Index rows, Index cols) {
      const Index pr = between(1, ranks), pc = between(1, ranks / pr);
      StoredMatrix m{BlockCyclic(rows, between(1, 9), pr, between(0, pr - 1)),
                     BlockCyclic(cols, between(1, 9), pc, between(0, pc - 1)), rows, {}};
      std::vector<Rank> grid(static_cast<std::size_t>(ranks));
      std::iota(grid.begin(), grid.end(), Rank{0});
      std::shuffle(grid.begin(), grid.end(), random);
      m.grid_ranks.assign(grid.begin(), grid.begin() + pr * pc);
      return m;
    };
    SubmatrixCopy copy{stored(between(1, 60), between(1, 60)), stored(between(1, 60), between(1, 60))};
    copy.rows = between(0, std::min(copy.from.rows.size(), copy.to.rows.size()));
    copy.cols = between(0, std::min(copy.from.cols.size(), copy.to.cols.size()));
    const Index eb = between(1, 16);
    std::vector<double> scanned(static_cast<std::size_t>(ranks), 0.0);
    for (const StoredMatrix* m : {&copy.from, &copy.to}) {
      const double share = static_cast<double>(copy.rows * copy.cols) / static_cast<double>(m->rows.size() * m->cols.size());
      for (Index i = 0; i < m->rows.size(); ++i) {
        for (Index j = 0; j < m->cols.size(); ++j) {
          const Index process = m->rows.owner(i) * m->cols.procs() + m->cols.owner(j);
          scanned[static_cast<std::size_t>(m->grid_ranks[static_cast<std::size_t>(process)])] += 2.0 * share * static_cast<double>(eb);
        }
      }
    }
    const std::vector<double> touched = touched_bytes(copy, ranks, eb);
    ASSERT_EQ(touched.size(), scanned.size());
    for (std::size_t r = 0; r < touched.size(); ++r) EXPECT_NEAR(touched[r], scanned[r], 1e-9 * (1 + scanned[r])) << trial;
  }
}

}  // namespace
}  // namespace redist
