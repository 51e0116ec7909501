// Indexing of multi-dimensional redistributions (same array shape on both sides) as tensor products
// of 1-D ones: what source processor (a0, a1, ...) sends to destination processor (c0, c1, ...) is the
// product of what 1-D processor a_d sends to c_d in each dimension d, so any 1-D indexing method
// (Krr, PITFALLS, Prylli) indexes 2-D ScaLAPACK layouts with work proportional to the dimensions'
// extents, not to the array, and the runs of the fastest local dimension stay whole.
//
// Message order (both sides agree): the source layout's storage order — for a column-major source,
// the first index runs fastest. This differs from naive_plan's row-major order, so a redistribution
// must use one method on every rank (it does: the method is an option of the collective call).
#pragma once

#include <functional>

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist {

/// A 1-D indexing method: the plans of rank `me` for two 1-D block-cyclic layouts.
using OneDimPlanner = std::function<RankPlan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me,
                                             bool materialise, Work& work)>;

/// True when both layouts are multi-dimensional with the same shape.
bool tensor_plan_applies(const Layout& source, const Layout& dest);

/// The plans of rank `me`, built from `planner`'s 1-D plans per dimension. Precondition:
/// tensor_plan_applies(source, dest). The unpack order is left to the caller (the method's, make_plan).
RankPlan tensor_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                     Work& work, const OneDimPlanner& planner);

}  // namespace redist
