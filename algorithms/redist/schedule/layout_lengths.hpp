// The message-length matrix of a redistribution between any two layouts, computed identically on
// every rank from the layouts alone (no communication), so that all ranks derive the same schedule.
#pragma once

#include "redist/layout/layout.hpp"
#include "redist/schedule/length_matrix.hpp"

namespace redist {

/// Entry (p, q): elements source processor p sends to destination processor q.
/// - Two 1-D block-cyclic layouts: paper 004's communication grid from the closed form, per slice
///   of L = lcm(P·r, Q·s), its rows and columns rotated when block 0 does not sit on processor 0.
///   O(P·Q). Every pair that exchanges data has a non-zero entry; when the array is not a multiple
///   of L, a pair may have an entry but no data (the exchange then skips it).
/// - Any other pair: an owner scan of the whole index space, exact counts. O(size) index
///   computations.
LengthMatrix message_lengths(const Layout& source, const Layout& dest);

}  // namespace redist
