#include "redist/comm_grid/comm_grid.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "redist/comm_grid/classes.hpp"
#include "redist/layout/block_cyclic.hpp"

namespace redist {
namespace {

constexpr Index kMaxCells = Index{1} << 28;
constexpr Index kMaxScannedSlice = Index{1} << 32;

std::vector<Index> zero_grid(const Redistribution& redist) {
  redist.slice_length();  // validates and rejects an overflowing L first
  const Index cells = checked_mul(redist.P, redist.Q, "P*Q");
  if (cells > kMaxCells) {
    throw std::invalid_argument("a " + std::to_string(redist.P) + "x" + std::to_string(redist.Q) +
                                " communication grid is larger than the supported 2^28 cells");
  }
  return std::vector<Index>(static_cast<std::size_t>(cells), 0);
}

}  // namespace

CommGrid::CommGrid(const Redistribution& redist, std::vector<Index> lengths)
    : redist_(redist), slice_(redist.slice_length()), lengths_(std::move(lengths)) {
  if (static_cast<Index>(lengths_.size()) != redist.P * redist.Q) {
    throw std::invalid_argument("a communication grid needs P*Q entries");
  }
}

Index CommGrid::messages_sent(Index p) const {
  Index n = 0;
  for (Index q = 0; q < Q(); ++q) n += length(p, q) != 0;
  return n;
}

Index CommGrid::messages_received(Index q) const {
  Index n = 0;
  for (Index p = 0; p < P(); ++p) n += length(p, q) != 0;
  return n;
}

Index CommGrid::max_messages_sent() const {
  Index best = 0;
  for (Index p = 0; p < P(); ++p) best = std::max(best, messages_sent(p));
  return best;
}

Index CommGrid::max_messages_received() const {
  Index best = 0;
  for (Index q = 0; q < Q(); ++q) best = std::max(best, messages_received(q));
  return best;
}

CommGrid comm_grid(const Redistribution& redist) {
  auto lengths = zero_grid(redist);
  const Index classes = reduce(redist).g;
  for (Index k = 0; k < classes; ++k) {
    const Index length = class_length(redist, k);
    if (length == 0) continue;
    for (const auto& [p, q] : class_members(redist, k)) {
      lengths[static_cast<std::size_t>(p * redist.Q + q)] = length;
    }
  }
  return CommGrid(redist, std::move(lengths));
}

CommGrid comm_grid_by_scan(const Redistribution& redist) {
  auto lengths = zero_grid(redist);
  const Index slice = redist.slice_length();
  if (slice > kMaxScannedSlice) {
    throw std::invalid_argument("slice L = " + std::to_string(slice) + " is too long to scan");
  }
  // Straight from the definition: every element's owner before and after.
  const BlockCyclic source(slice, redist.r, redist.P);
  const BlockCyclic target(slice, redist.s, redist.Q);
  for (Index i = 0; i < slice; ++i) {
    ++lengths[static_cast<std::size_t>(source.owner(i) * redist.Q + target.owner(i))];
  }
  return CommGrid(redist, std::move(lengths));
}

}  // namespace redist
