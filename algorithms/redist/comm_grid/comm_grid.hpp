// The communication grid of paper 004 (Definition 4): a P×Q table whose entry (p, q) is the number
// of elements source p sends to destination q per slice of L = lcm(P·r, Q·s) elements.
#pragma once

#include <vector>

#include "redist/comm_grid/redistribution.hpp"

namespace redist {

class CommGrid {
 public:
  /// `lengths` is row-major, P·Q entries.
  CommGrid(const Redistribution& redist, std::vector<Index> lengths);

  const Redistribution& redistribution() const { return redist_; }
  Index P() const { return redist_.P; }
  Index Q() const { return redist_.Q; }
  /// L: the slice the lengths are counted over.
  Index slice_length() const { return slice_; }

  Index length(Index p, Index q) const { return lengths_[static_cast<std::size_t>(p * redist_.Q + q)]; }
  /// Number of messages source p sends (non-zero entries of row p).
  Index messages_sent(Index p) const;
  /// Number of messages destination q receives (non-zero entries of column q).
  Index messages_received(Index q) const;
  Index max_messages_sent() const;
  Index max_messages_received() const;
  /// Every entry, row-major.
  const std::vector<Index>& lengths() const { return lengths_; }

  friend bool operator==(const CommGrid& a, const CommGrid& b) {
    return a.P() == b.P() && a.Q() == b.Q() && a.lengths_ == b.lengths_;
  }

 private:
  Redistribution redist_;
  Index slice_;
  std::vector<Index> lengths_;
};

/// The grid from the closed form: classes (Proposition 1) and their lengths (Proposition 2,
/// Lemma 1). Cost O(P·Q), independent of L. Throws std::invalid_argument for bad parameters or a
/// grid of more than 2^28 cells, OverflowError when L overflows.
CommGrid comm_grid(const Redistribution& redist);

/// The grid by brute force: scan every element of one slice and count its (owner, new owner).
/// Cost O(L); the reference the closed form is tested against. Refuses L > 2^32.
CommGrid comm_grid_by_scan(const Redistribution& redist);

}  // namespace redist
