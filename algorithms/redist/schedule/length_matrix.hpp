// The P×Q matrix of message lengths a schedule is computed from: entry (p, q) is what source p sends
// to destination q (0: no message). For a 1-D redistribution it is paper 004's communication grid;
// for other layouts it is counted from the layouts (layout_lengths.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "redist/comm_grid/comm_grid.hpp"

namespace redist {

class LengthMatrix {
 public:
  /// A P×Q matrix of zeros. Throws std::invalid_argument for a non-positive P or Q.
  LengthMatrix(Index P, Index Q);
  /// The communication grid's lengths (per slice of L).
  explicit LengthMatrix(const CommGrid& grid);

  Index P() const { return P_; }
  Index Q() const { return Q_; }
  Index at(Index p, Index q) const { return lengths_[cell(p, q)]; }
  void set(Index p, Index q, Index length) { lengths_[cell(p, q)] = length; }
  void add(Index p, Index q, Index length) { lengths_[cell(p, q)] += length; }
  /// The largest entry (0 for an all-zero matrix).
  Index max_length() const;

  friend bool operator==(const LengthMatrix&, const LengthMatrix&) = default;

 private:
  std::size_t cell(Index p, Index q) const { return static_cast<std::size_t>(p * Q_ + q); }
  Index P_;
  Index Q_;
  std::vector<Index> lengths_;
};

}  // namespace redist
