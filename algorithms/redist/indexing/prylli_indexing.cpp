#include "redist/indexing/prylli_indexing.hpp"

#include "redist/indexing/interval_scan.hpp"
#include "redist/indexing/periodic_plan.hpp"

namespace redist {
namespace {

CyclePieces scan_every_peer(const SideView& side, Work& work) {
  CyclePieces pieces(static_cast<std::size_t>(side.peer.procs()));
  for (Index peer = 0; peer < side.peer.procs(); ++peer) {
    scan_intervals(side.own, side.me, side.peer, peer, side.span(), pieces[static_cast<std::size_t>(peer)], work);
  }
  return pieces;
}

}  // namespace

RankPlan prylli_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                     Work& work) {
  const CyclicPair pair = cyclic_pair(source, dest, "prylli");
  return periodic_plan(pair, ranks, me, materialise, scan_every_peer, work);
}

}  // namespace redist
