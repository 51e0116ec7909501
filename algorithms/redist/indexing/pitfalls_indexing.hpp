// The PITFALLS indexing method (Ramaswamy, Simons, Banerjee 1996): both distributions are
// processor-indexed families of line segments; every processor intersects its own FALLS with the
// FALLS of every peer over one global complete cycle, and turns each resulting global segment into
// a local address. Work grows with the number of intersections.
#pragma once

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist {

/// The plans of rank `me`, equal to naive_plan's. Counts IndexOp
/// and Intersection work. Throws std::invalid_argument unless both layouts are 1-D block-cyclic.
RankPlan pitfalls_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                       Work& work);

}  // namespace redist
