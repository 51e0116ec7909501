#include "redist/indexing/periodic_plan.hpp"

namespace redist {
namespace {

template <class RankOf>
std::vector<PeerPlan> side_plans(const SideView& side, const CyclePieces& pieces, RankOf rank_of, bool materialise) {
  std::vector<PeerPlan> plans;
  const LocalCycles local = LocalCycles::of(side.local_period(), side.own.local_size(side.me));
  for (Index peer = 0; peer < side.peer.procs(); ++peer) {
    if (pieces[static_cast<std::size_t>(peer)].empty()) continue;
    PeerPlan plan = expand_period(rank_of(peer), pieces[static_cast<std::size_t>(peer)], local, materialise);
    if (plan.elements > 0) plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace

RankPlan periodic_plan(const CyclicPair& pair, const RankMap& ranks, Rank me, bool materialise,
                       const SideIndexer& index_side, Work& work) {
  RankPlan plan;
  if (const auto p = ranks.source_of(me, pair.source.procs())) {
    const SideView side = SideView::sender(pair, *p);
    plan.sends = side_plans(side, index_side(side, work), [&](Index q) { return ranks.dest_rank(q); }, materialise);
  }
  if (const auto q = ranks.dest_of(me, pair.dest.procs())) {
    const SideView side = SideView::receiver(pair, *q);
    plan.receives =
        side_plans(side, index_side(side, work), [&](Index p) { return ranks.source_rank(p); }, materialise);
  }
  return plan;
}

}  // namespace redist
