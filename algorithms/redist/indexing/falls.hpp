// FALLS — FAmiLy of Line Segments (Ramaswamy, Simons, Banerjee 1996): the segments
// [lower + t·stride, upper + t·stride], t = 0 .. count-1, of global indices. CYCLIC(b) gives
// processor i the FALLS (i·b, i·b + b - 1, P·b, n); indexed by processor (lower and upper
// advance by b per processor) that family is a PITFALLS.
#pragma once

#include <vector>

#include "redist/layout/block_cyclic.hpp"
#include "redist/transport/work.hpp"

namespace redist {

struct Falls {
  Index lower;   ///< first index of segment 0
  Index upper;   ///< last index of segment 0 (inclusive)
  Index stride;
  Index count;
};

/// A segment [lower, upper] of global indices, inclusive.
struct Segment {
  Index lower;
  Index upper;
};

/// The FALLS of processor `proc` of `layout`, limited to the segments starting below `span`.
Falls processor_falls(const BlockCyclic& layout, Index proc, Index span);

/// Appends the segments of a ∩ b below `span`, in increasing order. For each segment of the family
/// with fewer segments, those of the other that can meet it are located by division (2 IndexOp),
/// then each meeting is one Intersection: the work grows with the intersections, as in PITFALLS.
void intersect(const Falls& a, const Falls& b, Index span, std::vector<Segment>& out, Work& work);

}  // namespace redist
