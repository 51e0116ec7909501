// The indexing method of Prylli and Tourancheau (1997), as ScaLAPACK's redistribution uses it:
// every processor scans, peer by peer, the overlaps of its blocks with the peer's blocks over one
// global complete cycle (interval_scan.hpp), keeping them as intervals of its local storage.
#pragma once

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist {

/// The plans of rank `me`, equal to naive_plan's; unpacking is in source-rank order. Counts one
/// Intersection per scan step. Throws std::invalid_argument unless both layouts are 1-D block-cyclic.
RankPlan prylli_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                     Work& work);

}  // namespace redist
