// The bytes of each rank's memory one call touches: its local part of the source and of the
// destination, and message buffers as large again (what it sends and receives, at most those parts).
// Repeated calls find what they touched last time in the caches where it fits there: a node's
// memory model prices a call's copies by its ranks' sum (NodeMemory::copy_seconds).
#pragma once

#include <vector>

#include "redist/indexing/rank_map.hpp"
#include "redist/indexing/submatrix_plan.hpp"
#include "redist/layout/layout.hpp"

namespace redist {

/// Each of `ranks` ranks' bytes touched by a redistribution of `source` into `dest` with `placed`
/// placing their processors (0 on a rank that holds neither), in O(min(P + Q, ranks)): processors
/// placed on no rank below `ranks` are left out.
std::vector<double> touched_bytes(const Layout& source, const Layout& dest, const RankMap& placed, Index ranks,
                                  Index elem_bytes);

/// Each of `ranks` ranks' bytes touched by `copy` (any rank's view: its grids are everyone's): the
/// parts of its local A and B that sub(A) and sub(B) take (its local matrices × the submatrix's
/// share of each), and buffers as large again, in O(grid processes).
std::vector<double> touched_bytes(const SubmatrixCopy& copy, Index ranks, Index elem_bytes);

}  // namespace redist
