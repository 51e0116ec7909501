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
};

BlockCursor first_block(const BlockCyclic& layout, Index proc) {
  return {floor_mod(proc - layout.first_proc(), layout.procs()) * layout.block_size(), layout.block_size(),
          layout.period()};
}

}  // namespace

void scan_intervals(const BlockCyclic& own, Index me, const BlockCyclic& peer, Index other, Index span,
                    std::vector<Run>& out, Work& work) {
  BlockCursor mine = first_block(own, me), theirs = first_block(peer, other);
  Index local = 0;  // local offset of the start of `mine`
  while (mine.start < span && theirs.start < span) {
    work.add(WorkKind::IndexOp, 1);
    if (mine.end() <= theirs.start) {
      mine.advance();
      local += mine.block;
      continue;
    }
    if (theirs.end() <= mine.start) {
      theirs.advance();
      continue;
    }
    const Index start = std::max(mine.start, theirs.start);
    const Index end = std::min(mine.end(), theirs.end());
    out.push_back({local + start - mine.start, std::min(end, span) - start});
    work.add(WorkKind::Intersection, 1);
    if (theirs.end() == end) theirs.advance();
    if (mine.end() == end) {
      mine.advance();
      local += mine.block;
    }
  }
}

}  // namespace redist
