// The naive indexing method: every rank scans its local elements one by one and asks the other
// layout who owns each of them. O(local size) per rank; the reference for the smarter methods.
#pragma once

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist {

/// The send and receive plans of rank `me`. Counts ElementScanned and IndexOp work into `work`.
/// Runs are materialised when `materialise` is true, or whenever a layout's local order differs
/// from the global order (they must then be sorted).
RankPlan naive_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                    Work& work);

/// The work naive_plan counts for rank `me`, without scanning: one ElementScanned and two IndexOp
/// per local element on each side (a prediction's shortcut: the scan itself is O(N/P)).
Work naive_counted_work(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me);

}  // namespace redist
