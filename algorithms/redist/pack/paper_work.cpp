#include "redist/pack/paper_work.hpp"

#include <stdexcept>

namespace redist::pack {

Work paper_initial_scan(Index rank_d, Index local, Index true_elements, bool simple_storage) {
  // Every mask element is read once; SSS keeps local indices, tile, rank and destination: d+3 items.
  return Work(WorkKind::ElementScanned, local + (simple_storage ? (rank_d + 3) * true_elements : 0));
}

Work paper_compose(Index slices, Index busy_slices, Index true_elements, Index rescanned, Index segments, bool simple,
                   bool compact_message) {
  Work work;
  if (simple) {  // base ranks of C slices, then per kept element: its destination and a (datum, rank) pair
    return work.add(WorkKind::ElementScanned, slices + 2 * true_elements).add(WorkKind::IndexOp, true_elements);
  }
  // PS_c copied, sendl from PS_c and PS_f (C slices, one entry per segment), the slices rescanned,
  // then pairs (CSS) or segments (base rank, count, data...) (CMS); one destination per segment.
  const Index message = compact_message ? true_elements + 2 * segments : 2 * true_elements;
  return work.add(WorkKind::ElementScanned, slices + (slices + segments) + rescanned + message)
      .add(WorkKind::IndexOp, busy_slices + segments);
}

Work paper_decompose(Index received, Index received_segments, bool compact_message) {
  return Work(WorkKind::ElementScanned, compact_message ? received + 2 * received_segments : 2 * received);
}

Work paper_record_offsets(Index rank_d, Index records) { return Work(WorkKind::IndexOp, (rank_d - 1) * records); }

Work paper_slice_coordinates(Index rank_d, Index busy_slices) {
  return Work(WorkKind::IndexOp, 2 * (rank_d - 1) * busy_slices);
}

Work paper_detection(const Geometry& from) {
  Index segments = 0;
  for (std::size_t i = 0; i < from.rank(); ++i) segments += from.tiles(i);
  return Work(WorkKind::Intersection, from.processors() * segments);
}

Work paper_selected_receive(Index rank_d, Index local, Index received) {
  const Index decomposition = 2 * (rank_d - 1);  // quotients and remainders splitting g into d indices
  return Work(WorkKind::ElementScanned, local + 2 * received).add(WorkKind::IndexOp, (decomposition + rank_d) * received);
}

Work paper_intermediate_step(Index elements, Index segments) {
  // Fig. 2, per entry of RS_i: the segmented exclusive prefix sum reads and writes it (2), then
  // "PS_i <- PS_i + RS_i" (3). Per segment: RS_{i+1}(k) <- RS_i(.., l, T_i - 1) (2), its starting
  // point set (1), and substep 3's "PS_{i+1}(k) and RS_{i+1}(k) <- RS_{i+1}(k) + PS_i(.., l, T_i - 1)"
  // (2 reads, 2 writes); in the last step the one segment is Size, read and updated alike.
  return Work(WorkKind::ElementScanned, 2 * elements + kPaperAccessesPerAdd * elements + (2 + 1 + 4) * segments);
}

Work paper_base_rank_sum(Index elements) { return Work(WorkKind::ElementScanned, kPaperAccessesPerAdd * elements); }

}  // namespace redist::pack
