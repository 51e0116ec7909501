// Paper 003 §2, Figs. 4 and 5: the class table of a two-level mapping.
//
// CYCLIC(x) cuts the template into blocks of x cells; with the offset reduced to r = o mod s, the
// aligned cells are t ≡ r (mod s). Block b holds aligned cells at the same positions as block
// b + N_c, N_c = s / gcd(s, x) (Theorem 1), so block b belongs to class b mod N_c, and N_c
// consecutive blocks form a class cycle with A_c = x / gcd(s, x) aligned cells. For class c the
// table keeps, in the numbering of aligned cells within a class cycle:
//   A_f(c) the first, A_l(c) the last, and A_n(c) = A_l(c) − A_f(c) + 1 the number of them.
// A_f(c) also counts the aligned cells of classes 0..c−1, so A_c = A_l(N_c − 1) + 1. An empty class
// (possible when s > x) has A_n = 0 and A_f = A_l + 1, the "pseudo array element" of §3.1.
#pragma once

#include <vector>

#include "redist/core/invariant_divisor.hpp"
#include "redist/transport/work.hpp"

namespace redist {

struct ClassEntry {
  Index first;  ///< A_f(c)
  Index last;   ///< A_l(c)
  Index count;  ///< A_n(c)
  friend bool operator==(const ClassEntry&, const ClassEntry&) = default;
};

class ClassTable {
 public:
  /// The Class_Table_Generation algorithm (Fig. 5) for stride s, offset o (reduced to o mod s) and
  /// block size x, all validated by the caller (TwoLevelMapping::validate). Counts one TableEntry
  /// per class. Throws std::invalid_argument when N_c exceeds the supported 2^26 classes.
  ClassTable(Index stride, Index offset, Index block, Work& work);

  Index stride() const { return stride_; }
  Index block() const { return block_; }
  Index reduced_offset() const { return reduced_offset_; }
  /// N_c = s / gcd(s, x).
  Index classes() const { return static_cast<Index>(entries_.size()); }
  /// A_c: aligned cells in one class cycle.
  Index cycle_elements() const { return cycle_elements_; }
  const std::vector<ClassEntry>& entries() const { return entries_; }
  const ClassEntry& operator[](Index c) const { return entries_[static_cast<std::size_t>(c)]; }

  /// Reduced index (in the numbering of aligned cells from cell r) of the first aligned cell of
  /// block b, or of the next one after it when b is empty: ⌊b / N_c⌋·A_c + A_f(b mod N_c).
  Index block_first(Index b) const {
    const Index cycle = by_classes_.quotient(b);
    return cycle * cycle_elements_ + (*this)[b - cycle * by_classes_.divisor()].first;
  }

 private:
  Index stride_;
  Index block_;
  Index reduced_offset_;
  Index cycle_elements_;
  InvariantDivisor by_classes_;  // N_c
  std::vector<ClassEntry> entries_;
};

}  // namespace redist
