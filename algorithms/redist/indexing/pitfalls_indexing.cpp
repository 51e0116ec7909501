#include "redist/indexing/pitfalls_indexing.hpp"

#include "redist/indexing/falls.hpp"
#include "redist/indexing/periodic_plan.hpp"

namespace redist {
namespace {

CyclePieces intersect_with_every_peer(const SideView& side, Work& work) {
  const Index span = side.span();
  const Falls mine = processor_falls(side.own, side.me, span);
  CyclePieces pieces(static_cast<std::size_t>(side.peer.procs()));
  std::vector<Segment> segments;
  for (Index peer = 0; peer < side.peer.procs(); ++peer) {
    const Falls theirs = processor_falls(side.peer, peer, span);  // PITFALLS: offset by the peer's index
    work.add(WorkKind::IndexOp, 1);
    segments.clear();
    intersect(mine, theirs, span, segments, work);
    auto& out = pieces[static_cast<std::size_t>(peer)];
    out.reserve(segments.size());
    // FALLS are global index sets: each intersection is turned into a local address once.
    for (const Segment& s : segments) out.push_back({side.own.local_index(s.lower), s.upper - s.lower + 1});
    work.add(WorkKind::IndexOp, static_cast<Index>(segments.size()));
  }
  return pieces;
}

}  // namespace

RankPlan pitfalls_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                       Work& work) {
  const CyclicPair pair = cyclic_pair(source, dest, "pitfalls");
  return periodic_plan(pair, ranks, me, materialise, intersect_with_every_peer, work);
}

}  // namespace redist
