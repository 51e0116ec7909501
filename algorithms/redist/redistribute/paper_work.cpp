#include "redist/redistribute/paper_work.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "redist/indexing/falls.hpp"

namespace redist {
namespace {

// Arrays every program allocates per side (sender, receiver) whatever the method: its table or list
// array, the per-peer message sizes, the buffer pointers and the MPI requests.
constexpr Index kArraysPerSide = 4;

// Krr's table of one side, as the paper builds it (the header's counts).
Work krr_table_work(const SideView& side) {
  const Index own = side.own.block_size(), peer = side.peer.block_size();
  Work work;
  if (own % peer == 0) {  // the kr-block side: m sections, a cell per peer in each
    const Index sections = side.local_period() / own;
    work.add(WorkKind::IndexOp, sections).add(WorkKind::TableEntry, sections * side.peer.procs());
  } else {  // the r-block side: a cell per kr block of the cycle
    const Index cells = side.gcc / peer;
    work.add(WorkKind::IndexOp, cells).add(WorkKind::TableEntry, cells);
  }
  return work;
}

// The intersections the paper's PITFALLS and Prylli programs compute on one side: for every peer,
// each kr block the pair shares is tested against every r block inside it, k = kr / r tests, one
// per r block whether or not the peer owns it (section 5: BLOCK -> CYCLIC has N/P intersections
// between each source and destination processor, CYCLIC -> BLOCK N/Q). A kr-block processor tests
// its own blocks once per peer; an r-block processor tests every peer's kr blocks, i.e. every kr
// block of the cycle.
Index paper_intersections(const SideView& side) {
  const Index own = side.own.block_size(), peer = side.peer.block_size();
  const Index tests_per_block = ceil_div(std::max(own, peer), std::min(own, peer));
  const Index span = side.span();
  if (own >= peer) return processor_falls(side.own, side.me, span).count * tests_per_block * side.peer.procs();
  return ceil_div(span, peer) * tests_per_block;
}

// Pieces the method's copy loop starts: every piece of every cycle, touching or not.
Index copy_pieces(const PeerPlan& peer) { return peer.run_count + peer.extra_copies; }

class PaperWork final : public WorkAccounting {
 public:
  PaperWork(std::string_view method, CyclicPair pair, RankMap ranks, Rank me)
      : method_(method), pair_(std::move(pair)), ranks_(ranks), me_(me) {}

  Work index(const RankPlan& plan, const Work& counted) const override {
    return paper_index_work(method_, pair_, ranks_, me_, plan, counted);
  }
  Work pack(const PeerPlan& send, Index elem_bytes) const override { return paper_copy_work(method_, send, elem_bytes); }
  Work unpack(const PeerPlan& receive, Index elem_bytes) const override {
    return paper_copy_work(method_, receive, elem_bytes);
  }
  bool packs_every_message() const override { return true; }

 private:
  std::string_view method_;
  CyclicPair pair_;
  RankMap ranks_;
  Rank me_;
};

}  // namespace

Work paper_index_work(std::string_view method, const CyclicPair& pair, const RankMap& ranks, Rank me,
                      const RankPlan& plan, const Work& counted) {
  Work work;
  const auto side_work = [&](const SideView& side, std::size_t messages) {
    if (method == "krr") {
      work += krr_table_work(side);
      work.add(WorkKind::Allocation, kArraysPerSide + static_cast<Index>(messages));  // a table row per message
    } else {
      work.add(WorkKind::Allocation, kArraysPerSide + side.peer.procs());  // an intersection list per peer
      work.add(WorkKind::Intersection, paper_intersections(side));
    }
  };
  if (const auto p = ranks.source_of(me, pair.source.procs())) side_work(SideView::sender(pair, *p), plan.sends.size());
  if (const auto q = ranks.dest_of(me, pair.dest.procs())) side_work(SideView::receiver(pair, *q), plan.receives.size());
  if (method != "krr") work.add(WorkKind::IndexOp, counted.count(WorkKind::IndexOp));
  return work;
}

Work paper_copy_work(std::string_view method, const PeerPlan& peer, Index elem_bytes) {
  const Index pieces = copy_pieces(peer);
  Work work;
  work.add(WorkKind::ByteCopied, peer.elements * elem_bytes).add(WorkKind::RunCopied, pieces).add(WorkKind::Allocation, 1);
  if (method == "pitfalls") work.add(WorkKind::Intersection, 2 * pieces);
  if (method == "prylli") work.add(WorkKind::Intersection, pieces);
  return work;
}

std::unique_ptr<WorkAccounting> paper_work_accounting(std::string_view method, const Layout& source, const Layout& dest,
                                                      const RankMap& ranks, Rank me) {
  if (method != "krr" && method != "pitfalls" && method != "prylli") {
    throw std::invalid_argument("work 'paper' models paper 000's Krr, PITFALLS and Prylli programs; indexing '" +
                                std::string(method) + "' has none");
  }
  return std::make_unique<PaperWork>(method, cyclic_pair(source, dest, method), ranks, me);
}

}  // namespace redist
