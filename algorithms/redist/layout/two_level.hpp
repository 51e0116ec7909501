// Two-level HPF mapping of paper 003:
//   ALIGN A(i) WITH T(stride·i + offset);  DISTRIBUTE T(CYCLIC(block)) ONTO P.
// Element i of A sits on template cell t = stride·i + offset, which CYCLIC(block) puts on
// processor (t / block) mod P. Each processor stores only its elements of A, holes compressed,
// in increasing global order (the "compressed local array" of paper 003, Fig. 2(b)). The index
// maps come from the paper's class and compression tables (redist/layout/compressed_index.hpp):
// O(stride + P) set-up, O(1) global → local, O(log stride) local → global.
#pragma once

#include "redist/layout/compressed_index.hpp"

namespace redist {

class TwoLevelLayout {
 public:
  /// Throws std::invalid_argument for non-positive size/stride/block/procs, a negative offset or
  /// more than 2^26 block classes, and OverflowError when the last template cell or
  /// block·procs does not fit in 64 bits.
  TwoLevelLayout(Index size, Index stride, Index offset, Index block, Index procs);

  Index size() const { return mapping().size; }
  Index stride() const { return mapping().stride; }
  Index offset() const { return mapping().offset; }
  Index block_size() const { return mapping().block; }
  Index procs() const { return mapping().procs; }
  /// Number of A elements after which the owner pattern repeats: P·x / gcd(stride, P·x), the
  /// paper's A_ptn.
  Index period() const { return index_.pattern_elements(); }
  const TwoLevelMapping& mapping() const { return index_.mapping(); }

  /// Template cell of element i.
  Index template_cell(Index i) const { return mapping().template_cell(i); }
  Index owner(Index i) const { return index_.owner(i); }
  /// Position of element i in its owner's compressed local array.
  Index local_index(Index i) const { return index_.local_index(i); }
  /// Global index at position `local` of processor p's compressed local array.
  Index global_index(Index p, Index local) const { return index_.global_index(p, local); }
  Index local_size(Index p) const { return index_.local_size(p); }

 private:
  CompressedIndex index_;
};

}  // namespace redist
