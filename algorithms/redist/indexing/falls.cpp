#include "redist/indexing/falls.hpp"

#include <algorithm>

namespace redist {

Falls processor_falls(const BlockCyclic& layout, Index proc, Index span) {
  const Index b = layout.block_size();
  const Index lower = floor_mod(proc - layout.first_proc(), layout.procs()) * b;
  const Index count = lower < span ? ceil_div(span - lower, layout.period()) : 0;
  return {lower, lower + b - 1, layout.period(), count};
}

namespace {

// The meetings of each segment of `a` with the segments of `b`, in increasing order.
void meet_each_segment_of(const Falls& a, const Falls& b, Index span, std::vector<Segment>& out, Work& work) {
  for (Index t = 0; t < a.count; ++t) {
    const Index lower = a.lower + t * a.stride, upper = a.upper + t * a.stride;
    // Segments u of b with b.upper + u·stride >= lower and b.lower + u·stride <= upper.
    const Index first = std::max<Index>(0, ceil_div(std::max<Index>(0, lower - b.upper), b.stride));
    const Index last = std::min(b.count - 1, floor_div(upper - b.lower, b.stride));
    work.add(WorkKind::IndexOp, 2);
    for (Index u = first; u <= last; ++u) {
      const Segment meet{std::max(lower, b.lower + u * b.stride), std::min(upper, b.upper + u * b.stride)};
      work.add(WorkKind::Intersection, 1);
      if (meet.lower < span) out.push_back({meet.lower, std::min(meet.upper, span - 1)});
    }
  }
}

}  // namespace

void intersect(const Falls& a, const Falls& b, Index span, std::vector<Segment>& out, Work& work) {
  // Walk the family with fewer segments and locate its partners in the other (BLOCK -> CYCLIC:
  // one block against many single elements). Either way the meetings come in increasing order.
  if (a.count <= b.count) {
    meet_each_segment_of(a, b, span, out, work);
  } else {
    meet_each_segment_of(b, a, span, out, work);
  }
}

}  // namespace redist
