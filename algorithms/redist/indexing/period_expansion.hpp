// From one local complete cycle to the whole local array. The table and intersection methods
// describe what a processor exchanges with a peer over one local cycle, as the pieces their copy
// loops handle (a Krr class chunk, a PITFALLS or Prylli intersection); every later cycle repeats
// them shifted by the cycle length, and the last cycle is cut at the local size (any N works).
#pragma once

#include <span>

#include "redist/indexing/rank_plan.hpp"

namespace redist {

/// A local array of `cycles` whole local complete cycles of `period` elements and `tail` more.
struct LocalCycles {
  Index period;
  Index cycles;
  Index tail;
  static LocalCycles of(Index period, Index local_size) { return {period, local_size / period, local_size % period}; }
};

/// The plan of one peer: `pieces` are sorted, disjoint ranges of [0, period). Runs are the maximal
/// merges of the expanded pieces (exactly what an element-by-element scan finds); they are
/// materialised only when asked, the counts always, in O(pieces) without materialising.
/// `extra_copies` counts the extra copies: pieces the method copies apart though they touch.
/// Each cycle only shifts a piece's local offset, so its copy needs no further index arithmetic.
PeerPlan expand_period(Rank peer, std::span<const Run> pieces, const LocalCycles& local, bool materialise);

}  // namespace redist
