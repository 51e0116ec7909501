#include "redist/indexing/interval_scan.hpp"

#include <algorithm>

namespace redist {
namespace {

// A cursor on the blocks one processor holds: [start, start + block), advancing by a period.
struct BlockCursor {
  Index start;
  Index block;
  Index period;
  Index end() const { return start + block; }
  void advance() { start += period; }
  // Skips, at once, the blocks that end at or before `position`; returns how many.
  Index skip_to(Index position) {
    const Index blocks = (position - end()) / period + 1;
    start += blocks * period;
    return blocks;
  }
};

BlockCursor first_block(const BlockCyclic& layout, Index proc) {
  return {floor_mod(proc - layout.first_proc(), layout.procs()) * layout.block_size(), layout.block_size(),
          layout.period()};
}

}  // namespace

void scan_intervals(const BlockCyclic& own, Index me, const BlockCyclic& peer, Index other, Index span,
                    RunList& out, Work& work) {
  BlockCursor mine = first_block(own, me), theirs = first_block(peer, other);
  Index local = 0;  // local offset of the start of `mine`
  while (mine.start < span && theirs.start < span) {
    // Every step tests two blocks for overlap. Blocks without overlap cost one step each and are
    // counted so, but skipped in one go (BLOCK -> CYCLIC would cost the host N steps per peer).
    if (mine.end() <= theirs.start) {
      const Index blocks = mine.skip_to(theirs.start);
      local += blocks * mine.block;
      work.add(WorkKind::Intersection, blocks);
      continue;
    }
    if (theirs.end() <= mine.start) {
      work.add(WorkKind::Intersection, theirs.skip_to(mine.start));
      continue;
    }
    const Index start = std::max(mine.start, theirs.start);
    const Index end = std::min(mine.end(), theirs.end());
    out.push_back({local + start - mine.start, std::min(end, span) - start});
    work.add(WorkKind::Intersection, 1);  // a test that found an overlap
    if (theirs.end() == end) theirs.advance();
    if (mine.end() == end) {
      mine.advance();
      local += mine.block;
    }
  }
}

}  // namespace redist
