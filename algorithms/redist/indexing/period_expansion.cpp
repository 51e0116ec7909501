#include "redist/indexing/period_expansion.hpp"

#include <algorithm>

namespace redist {
namespace {

// What the pieces of one cycle, cut at `limit`, amount to.
struct CycleSummary {
  Index elements = 0;
  Index runs = 0;    // after merging touching pieces
  Index pieces = 0;  // pieces that survive the cut
  bool starts_at_zero = false;
  Index end = 0;     // end of the last surviving piece
};

CycleSummary summarise(std::span<const Run> pieces, Index limit) {
  CycleSummary out;
  for (const Run& piece : pieces) {
    if (piece.local_start >= limit) break;
    const Index end = std::min(piece.local_start + piece.length, limit);
    if (out.pieces == 0) {
      out.starts_at_zero = piece.local_start == 0;
    }
    if (out.pieces == 0 || piece.local_start != out.end) ++out.runs;
    out.elements += end - piece.local_start;
    out.end = end;
    ++out.pieces;
  }
  return out;
}

// append_piece's records of the whole cycles and the cut last one, cycle by cycle until one leaves
// the last records as the cycle before did, a period on: every later cycle then adds as many.
Index count_records(std::span<const Run> pieces, Index period, Index cycles, Index tail) {
  // Pieces touching across the cycle's end join: none is longer than the period twice.
  const Index longest = 2 * period;
  RecordCounter counter;
  for (Index c = 0; c < cycles; ++c) {
    const RecordCounter before = counter;
    for (const Run& piece : pieces) counter.add(c * period + piece.local_start, piece.length);
    if (c > 0 && counter.repeats(before, period, longest)) {
      const Index later = cycles - 1 - c;
      counter.skip(later * (counter.count() - before.count()), later * period);
      break;
    }
  }
  for (const Run& piece : pieces) {
    if (piece.local_start >= tail) break;
    counter.add(cycles * period + piece.local_start, std::min(piece.length, tail - piece.local_start));
  }
  return counter.count();
}

// Counts without materialising: whole cycles, then the cut last one; a run crosses a cycle
// boundary when a cycle ends with a piece touching its end and the next starts at 0.
void count_runs(PeerPlan& plan, Index& copies, std::span<const Run> pieces, Index period, Index cycles, Index tail) {
  const CycleSummary whole = summarise(pieces, period);
  const CycleSummary cut = summarise(pieces, tail);
  const bool wraps = whole.starts_at_zero && whole.end == period;
  plan.elements = cycles * whole.elements + cut.elements;
  plan.run_count = cycles * whole.runs + cut.runs;
  if (cycles > 0 && wraps) plan.run_count -= cycles - 1;
  if (cycles > 0 && cut.pieces > 0 && whole.end == period && cut.starts_at_zero) plan.run_count -= 1;
  copies = cycles * whole.pieces + cut.pieces;
  plan.record_count = count_records(pieces, period, cycles, tail);
}

void append(PeerPlan& plan, Index start, Index length) {
  append_piece(plan.runs, start, length);
  plan.elements += length;
}

void materialise_runs(PeerPlan& plan, Index& copies, std::span<const Run> pieces, Index period, Index cycles,
                      Index tail) {
  // At most a record per piece; regular pieces fold into far fewer. Reserved memory that is never
  // written is never faulted in, and growth by reallocation would copy the list over and over.
  plan.runs.reserve(static_cast<std::size_t>(cycles + 1) * pieces.size());
  for (Index c = 0; c < cycles; ++c) {
    for (const Run& piece : pieces) append(plan, c * period + piece.local_start, piece.length);
  }
  copies = cycles * static_cast<Index>(pieces.size());
  for (const Run& piece : pieces) {
    if (piece.local_start >= tail) break;
    append(plan, cycles * period + piece.local_start, std::min(piece.length, tail - piece.local_start));
    ++copies;
  }
  plan.run_count = piece_count(plan.runs);
  plan.record_count = static_cast<Index>(plan.runs.size());
}

}  // namespace

PeerPlan expand_period(Rank peer, std::span<const Run> pieces, const LocalCycles& local, bool materialise) {
  PeerPlan plan;
  plan.peer = peer;
  Index copies = 0;
  if (materialise) {
    materialise_runs(plan, copies, pieces, local.period, local.cycles, local.tail);
  } else {
    count_runs(plan, copies, pieces, local.period, local.cycles, local.tail);
  }
  plan.extra_copies = copies - plan.run_count;
  return plan;
}

}  // namespace redist
