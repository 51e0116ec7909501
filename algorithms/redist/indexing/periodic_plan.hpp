// The plan driver shared by the methods that describe one local complete cycle (Krr, PITFALLS,
// Prylli): each side of a rank (sender, receiver) is indexed once, then expanded over the local
// array peer by peer (period_expansion.hpp).
#pragma once

#include <functional>
#include <vector>

#include "redist/indexing/cyclic_pair.hpp"
#include "redist/indexing/period_expansion.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist {

/// Pieces of one local complete cycle, per peer processor number (sorted, disjoint, in [0, LCC)).
using CyclePieces = std::vector<RunList>;

/// A method's indexing of one side: the cycle's pieces for every peer, counting its work.
using SideIndexer = std::function<CyclePieces(const SideView&, Work&)>;

/// The send and receive plans of rank `me`, peers in increasing processor order, empty ones left out.
RankPlan periodic_plan(const CyclicPair& pair, const RankMap& ranks, Rank me, bool materialise,
                       const SideIndexer& index_side, Work& work);

}  // namespace redist
