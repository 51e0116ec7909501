#include "redist/indexing/paper_programs.hpp"

#include <algorithm>

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

// Krr: its tables, a table row allocated per message; PITFALLS and Prylli: their intersections, an
// intersection list allocated per peer processor.
Work krr_side_work(const SideView& side, std::size_t messages) {
  Work work = krr_table_work(side);
  work.add(WorkKind::Allocation, kArraysPerSide + static_cast<Index>(messages));
  return work;
}

Work intersecting_side_work(const SideView& side, std::size_t) {
  Work work;
  work.add(WorkKind::Allocation, kArraysPerSide + side.peer.procs());
  work.add(WorkKind::Intersection, paper_intersections(side));
  return work;
}

}  // namespace

// PITFALLS' intersections are FALLS, family and segment (two records read per piece); Prylli's a
// flat interval list (one record per piece); Krr reads (CS, FI) straight from its table.
const PaperProgram kKrrPaperProgram{krr_side_work, false, 0};
const PaperProgram kPitfallsPaperProgram{intersecting_side_work, true, 2};
const PaperProgram kPrylliPaperProgram{intersecting_side_work, true, 1};
const PaperProgram kNaivePaperProgram{};

Work paper_index_work(const PaperProgram& program, const CyclicPair& pair, const RankMap& ranks, Rank me,
                      const RankPlan& plan, const Work& counted) {
  Work work;
  if (const auto p = ranks.source_of(me, pair.source.procs())) {
    work += program.side_index_work(SideView::sender(pair, *p), plan.sends.size());
  }
  if (const auto q = ranks.dest_of(me, pair.dest.procs())) {
    work += program.side_index_work(SideView::receiver(pair, *q), plan.receives.size());
  }
  if (program.charges_counted_index_ops) work.add(WorkKind::IndexOp, counted.count(WorkKind::IndexOp));
  return work;
}

Work paper_copy_work(const PaperProgram& program, const PeerPlan& peer, Index elem_bytes) {
  const Index pieces = copy_pieces(peer);
  Work work;
  work.add(WorkKind::ByteCopied, peer.elements * elem_bytes).add(WorkKind::RunCopied, pieces).add(WorkKind::Allocation, 1);
  if (program.records_per_piece != 0) work.add(WorkKind::RecordCopied, program.records_per_piece * pieces);
  return work;
}

}  // namespace redist
