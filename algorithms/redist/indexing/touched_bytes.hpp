// The bytes of a rank's memory one call touches: its local part of the source and of the
// destination, and message buffers as large again (what it sends and receives, at most those parts).
// Repeated calls find what they touched last time in the caches where it fits there: a node's
// memory model prices a call's copies by it (NodeMemory::copy_seconds).
#pragma once

#include "redist/indexing/rank_map.hpp"
#include "redist/indexing/submatrix_plan.hpp"
#include "redist/layout/layout.hpp"

namespace redist {

/// Rank `rank`'s bytes touched by a redistribution of `source` into `dest` with `ranks` placing
/// their processors (0 on a rank that holds neither).
double touched_bytes(const Layout& source, const Layout& dest, const RankMap& ranks, Rank rank, Index elem_bytes);

/// Rank `rank`'s bytes touched by `copy`: the parts of its local A and B that sub(A) and sub(B) take
/// (its local matrices × the submatrix's share of each), and buffers as large again.
double touched_bytes(const SubmatrixCopy& copy, Rank rank, Index elem_bytes);

}  // namespace redist
