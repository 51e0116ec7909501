// The Krr indexing method (paper 000): no send or receive sets are computed; each processor builds
// its packing (PIT) or unpacking (UPIT) information table once, in time independent of N, and its
// messages are the table's classes repeated over the local complete cycles.
#pragma once

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist {

/// The plans of rank `me`, equal to naive_plan's. Counts TableEntry and IndexOp work for the tables
/// only. Throws std::invalid_argument unless both layouts are 1-D block-cyclic with one block size
/// a multiple of the other.
RankPlan krr_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                  Work& work);

/// True when Krr indexes the pair: in every dimension one block size is a multiple of the other
/// (1-D block-cyclic, or multi-dimensional layouts of the same shape, indexed dimension by dimension).
bool krr_takes(const Layout& source, const Layout& dest);

}  // namespace redist
