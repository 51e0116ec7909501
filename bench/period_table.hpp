// The representation TwoLevelLayout used before paper 003's tables, kept as the in-run baseline of
// bench_two_level_maps: per processor, the offsets of its elements within one period
// P·x / gcd(s, P·x) of the owner pattern — O(P·x) entries, a binary search for global → local.
// Compiled apart (period_table.cpp), as it was in the layout library.
#pragma once

#include <vector>

#include "redist/core/int_math.hpp"

namespace redist::bench {

class PeriodTable {
 public:
  PeriodTable(Index size, Index stride, Index offset, Index block, Index procs);
  Index owner(Index i) const { return ((stride_ * i + offset_) / block_) % procs_; }
  Index local_index(Index i) const;
  Index global_index(Index p, Index local) const;
  Index local_size(Index p) const;

 private:
  Index size_, stride_, offset_, block_, procs_, period_;
  std::vector<std::vector<Index>> offsets_;  // by processor, increasing
};

}  // namespace redist::bench
