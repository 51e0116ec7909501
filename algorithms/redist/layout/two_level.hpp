// Two-level HPF mapping of paper 003:
//   ALIGN A(i) WITH T(stride·i + offset);  DISTRIBUTE T(CYCLIC(block)) ONTO P.
// Element i of A sits on template cell t = stride·i + offset, which CYCLIC(block) puts on
// processor (t / block) mod P. Each processor stores only its elements of A, holes compressed,
// in increasing global order (the "compressed local array" of paper 003, Fig. 2(b)).
#pragma once

#include <vector>

#include "redist/core/int_math.hpp"

namespace redist {

class TwoLevelLayout {
 public:
  /// Throws std::invalid_argument for non-positive size/stride/block/procs or a negative offset,
  /// and OverflowError when the last template cell does not fit in 64 bits.
  TwoLevelLayout(Index size, Index stride, Index offset, Index block, Index procs);

  Index size() const { return size_; }
  Index stride() const { return stride_; }
  Index offset() const { return offset_; }
  Index block_size() const { return block_; }
  Index procs() const { return procs_; }
  /// Number of A elements after which the owner pattern repeats: P·x / gcd(stride, P·x).
  Index period() const { return period_; }

  /// Template cell of element i.
  Index template_cell(Index i) const { return stride_ * i + offset_; }
  Index owner(Index i) const { return (template_cell(i) / block_) % procs_; }
  /// Position of element i in its owner's compressed local array.
  Index local_index(Index i) const;
  /// Global index at position `local` of processor p's compressed local array.
  Index global_index(Index p, Index local) const;
  Index local_size(Index p) const;

 private:
  Index size_, stride_, offset_, block_, procs_, period_;
  // For each processor, the offsets j in [0, period) whose element j lands on it, increasing.
  std::vector<std::vector<Index>> offsets_in_period_;
};

}  // namespace redist
