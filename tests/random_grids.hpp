// Random ScaLAPACK-style matrices for the tests of copies between them: a grid of some of a pool's
// ranks (any shape, any rank order, each process's leading dimension padded by 0 to 3), and a
// matrix stored on it with random blocks and first process.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "redist/indexing/submatrix_plan.hpp"

namespace redist::test {

inline Index pick(std::mt19937_64& rng, Index lo, Index hi) {  // uniform in [lo, hi]
  return lo + static_cast<Index>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

struct RandomGrid {
  Index rows, cols;
  std::vector<Rank> ranks;
  std::vector<Index> lld_padding;  // per process
};

/// 1 to pool.size() processes of the pool, in random order, as a random rows x cols grid.
inline RandomGrid random_grid(std::mt19937_64& rng, const std::vector<Rank>& pool) {
  const Index processes = pick(rng, 1, static_cast<Index>(pool.size()));
  std::vector<Index> divisors;
  for (Index d = 1; d <= processes; ++d) {
    if (processes % d == 0) divisors.push_back(d);
  }
  RandomGrid g;
  g.rows = divisors[static_cast<std::size_t>(pick(rng, 0, static_cast<Index>(divisors.size()) - 1))];
  g.cols = processes / g.rows;
  std::vector<Rank> shuffled = pool;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  g.ranks.assign(shuffled.begin(), shuffled.begin() + processes);
  for (Index p = 0; p < processes; ++p) g.lld_padding.push_back(pick(rng, 0, 3));
  return g;
}

/// A rows x cols matrix on `g`, blocks of 1 to max_block, any first process (LLD left at 1).
inline StoredMatrix random_stored(std::mt19937_64& rng, const RandomGrid& g, Index rows, Index cols, Index max_block) {
  return {BlockCyclic(rows, pick(rng, 1, max_block), g.rows, pick(rng, 0, g.rows - 1)),
          BlockCyclic(cols, pick(rng, 1, max_block), g.cols, pick(rng, 0, g.cols - 1)), 1, g.ranks};
}

/// Rank `me`'s leading dimension of `m` on `g`: its local rows (at least 1) and its padding; 1
/// outside the grid.
inline Index padded_leading_dim(const StoredMatrix& m, const RandomGrid& g, Rank me) {
  const Index p = m.process_of(me);
  return p < 0 ? 1 : std::max<Index>(1, m.rows.local_size(p / m.cols.procs())) + g.lld_padding[static_cast<std::size_t>(p)];
}

}  // namespace redist::test
