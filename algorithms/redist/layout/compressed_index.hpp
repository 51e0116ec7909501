// The compressed layout of a two-level mapping as an index map, for every processor at once:
// global ↔ (processor, position in its compressed local array), from paper 003's tables.
//
// Processor p's blocks p, p + P, p + 2P, ... run through the classes p, p + P, ... (mod N_c): one of
// the gcd(N_c, P) cycles of N_pb^p classes, the cycle of p mod gcd(N_c, P). Its compression table
// is the table of processor ρ = p mod gcd(N_c, P) rotated to start at class p mod N_c: C_n and the
// differences of C_l depend on classes only, and C_g differs by a constant. So the class table and
// the gcd(N_c, P) cycle tables — O(N_c) = O(s) entries — serve all P processors: p's elements in its
// first k blocks are (k div N_pb^p)·A^p_ptn plus a difference of C_l. Set-up is O(s + P) (a few
// counts per processor are kept when P <= 2^16, and recomputed per query beyond); global → local
// is O(1), local → global O(log N_c) (a search of C_l), O(1) when a processor holds at most two
// elements per block on average. Every division is by a constant of the mapping, done by
// multiplication (InvariantDivisor).
#pragma once

#include <vector>

#include "redist/layout/class_table.hpp"
#include "redist/layout/compression_table.hpp"
#include "redist/layout/two_level_mapping.hpp"

namespace redist {

class CompressedIndex {
 public:
  /// Validates the mapping (see TwoLevelMapping::validate) and builds the tables, counting their
  /// entries into `work`.
  CompressedIndex(const TwoLevelMapping& mapping, Work& work);

  const TwoLevelMapping& mapping() const { return mapping_; }
  const ClassTable& classes() const { return classes_; }
  /// A_ptn: owners and local positions repeat every A_ptn elements (P·x / gcd(s, P·x)).
  Index pattern_elements() const { return pattern_elements_; }

  Index owner(Index i) const { return by_procs_.remainder(by_block_.quotient(mapping_.template_cell(i))); }
  /// Position of A(i) in its owner's compressed local array. O(1).
  Index local_index(Index i) const;
  /// Global index at position `local` of processor p's compressed local array. O(log N_c).
  /// Throws std::out_of_range for a bad processor or position.
  Index global_index(Index p, Index local) const;
  /// N^p_A. Throws std::out_of_range for a bad processor.
  Index local_size(Index p) const;

 private:
  /// The compression table of processor ρ, the first whose blocks run through a cycle. Its C_l
  /// and C_g columns, continued over two patterns (C(m), then C(m) + A^p_ptn or + A_ptn), are kept
  /// in starts_ and firsts_ from `begin` on: any rotation of the table is a contiguous window there,
  /// searched without branches.
  struct Cycle {
    Index begin;
    Index per_pattern;                ///< A^p_ptn
    InvariantDivisor by_per_pattern;  ///< A^p_ptn, or 1 when the cycle holds no element
    /// Where entry_of_ maps the cycle's continued local positions to entries, or −1. Kept when
    /// A^p_ptn <= 2·N_pb^p (at most two elements per block on average, always when s > x): it
    /// then costs no more than the columns, and makes local → global O(1).
    Index inverse_begin;
  };
  /// Where a processor's compression table sits: the cycle holding its first block's class, and
  /// the entry of starts_ / firsts_ for that class (its window's first entry).
  struct Place {
    Index cycle;
    Index window;
  };
  /// What a query needs of one processor.
  struct Processor {
    Place place;
    Index pseudo;  ///< pseudo-active elements it holds
    Index size;    ///< N^p_A
    /// Its blocks and those of ρ in the same classes lie a fixed number of class cycles apart:
    /// the difference of their first aligned cells, block_first(p) − firsts_[window].
    Index shift;
  };
  /// A block and the aligned cells of it before some cell: the argument of rank().
  struct Cut {
    Index block;
    Index within;
  };

  /// Processor p's place and counts: looked up when P is small enough to keep them, else computed.
  Processor processor(Index p) const;
  Processor describe(Index p) const;
  /// Aligned cells (pseudo-active ones included) in the first k blocks of a processor at `place`.
  Index blocks_prefix(const Place& place, Index k) const;
  /// Processor p's aligned cells before the cut.
  Index rank(Index p, const Place& place, Cut cut) const;
  /// Reduced index of the processor's aligned cell number k.
  Index select(const Processor& proc, Index k) const;
  /// Appends a cycle table's continued columns and returns the cycle.
  Cycle continued(const CompressionTable& table);
  /// The last entry of starts_[first, first + n) at most `target` (starts_[first] <= target).
  Index last_at_most(Index first, Index n, Index target) const;
  Index start(Index m) const { return starts_[static_cast<std::size_t>(m)]; }

  TwoLevelMapping mapping_;
  ClassTable classes_;
  std::vector<Cycle> cycles_;  // one per cycle ρ < gcd(N_c, P)
  std::vector<Index> starts_;  // C_l of the cycles, continued
  std::vector<Index> firsts_;  // C_g of the cycles, continued
  std::vector<Index> entry_of_;  // entry holding each continued local position, for small cycles
  std::vector<Place> places_;  // by class
  Index pattern_elements_ = 0;
  InvariantDivisor by_block_, by_procs_, by_classes_, by_stride_, by_occurrences_;
  Index pseudo_active_;  // o div s
  Cut first_;  // A(0): aligned cells before it are pseudo-active
  Cut end_;    // just after A(N_A − 1)
  std::vector<Processor> processors_;  // empty when P is too large to keep them
};

}  // namespace redist
