// Paper 003 §3.1, Figs. 6 and 7: the compression table of one processor.
//
// Blocks repeat their classes every N_c blocks and their processors every P blocks, so the whole
// distribution repeats every N_pb = lcm(N_c, P) blocks: a "data distribution pattern" holding
// A_ptn = (N_pb / N_c)·A_c aligned cells (the global indexing offset). Processor p holds
// N_pb^p = N_c / gcd(N_c, P) blocks of each pattern, the occurrences b = p, p + P, ...; for each,
// its compression table keeps
//   C_g = ⌊b / N_c⌋·A_c + A_f(b mod N_c), the (reduced) index of the block's first aligned cell,
//   C_n = A_n(b mod N_c), the number of aligned cells in the block,
//   C_l, the position of that first cell in p's compressed local array (a running sum of C_n).
// p holds A^p_ptn = Σ C_n of them per pattern (the local indexing offset): A(g) at local position l
// implies A(g + A_ptn) at l + A^p_ptn. Indices are those of the mapping reduced to r = o mod s.
#pragma once

#include <vector>

#include "redist/layout/class_table.hpp"

namespace redist {

struct CompressionEntry {
  Index global;  ///< C_g
  Index count;   ///< C_n
  Index local;   ///< C_l
  friend bool operator==(const CompressionEntry&, const CompressionEntry&) = default;
};

class CompressionTable {
 public:
  /// The Compression_Table_Generation algorithm (Fig. 7) for processor `proc` of `procs`, from the
  /// class table. Counts one TableEntry per occurrence. Throws std::out_of_range for a bad `proc`
  /// and OverflowError when A_ptn does not fit in 64 bits (excluded by TwoLevelMapping::validate).
  CompressionTable(const ClassTable& classes, Index procs, Index proc, Work& work);

  Index proc() const { return proc_; }
  /// N_pb^p = N_c / gcd(N_c, P).
  Index occurrences() const { return static_cast<Index>(entries_.size()); }
  const std::vector<CompressionEntry>& entries() const { return entries_; }
  const CompressionEntry& operator[](Index k) const { return entries_[static_cast<std::size_t>(k)]; }
  /// A_ptn, the global indexing offset.
  Index pattern_elements() const { return pattern_elements_; }
  /// A^p_ptn, the local indexing offset.
  Index local_pattern_elements() const { return local_pattern_elements_; }

  /// How many of this processor's aligned cells have a (reduced) index below j >= 0: the local
  /// position A(j) has or would have. O(log N_pb^p).
  Index count_before(Index j) const;
  /// Occurrence holding local position w of a pattern, 0 <= w < A^p_ptn: the last entry with
  /// C_l <= w, which is never empty. O(log N_pb^p).
  Index occurrence_at(Index w) const;

 private:
  Index proc_;
  Index pattern_elements_;
  Index local_pattern_elements_;
  std::vector<CompressionEntry> entries_;
};

}  // namespace redist
