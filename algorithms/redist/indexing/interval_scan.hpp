// The interval scan of Prylli and Tourancheau (ScaLAPACK's xGEMR2D redistribution): for one pair
// of processors, walk the blocks of both block-cyclic distributions in increasing global order, two
// cursors at a time, and emit each overlap of a block of one with a block of the other as an
// interval of the first processor's local storage.
#pragma once

#include <vector>

#include "redist/layout/block_cyclic.hpp"
#include "redist/indexing/rank_plan.hpp"

namespace redist {

/// The intervals of `own` processor `me`'s local storage that `peer` processor `other` holds in the
/// other distribution, for global indices below `span`, in increasing order. Each cursor step tests
/// two blocks for overlap (compare and add, no division): one Intersection, empty or not.
void scan_intervals(const BlockCyclic& own, Index me, const BlockCyclic& peer, Index other, Index span,
                    RunList& out, Work& work);

}  // namespace redist
