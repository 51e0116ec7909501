// Which local work a PACK/UNPACK run charges (WorkModel, redist/transport/work_model.hpp): redist's
// own (what this library's code does) or the work of Bae and Ranka's C programs on the CM-5 (paper
// 001), so that a replay prices what the paper measured. Only the charged counts differ; the data
// moved and the results are the same.
//
// The paper's codes, as its section 6.4 models them, in units of one memory access (one item read or
// written by a C loop: WorkKind::ElementScanned), for a processor with L local elements in C slices,
// E true ones, E_a = ceil(Size/P) elements of V, Gs / Gr segments sent / received:
//  - SSS:  L + C + (d+3)E + 2E + 2E_a   (scan; base ranks; d+3 items kept per true element; pairs
//          composed and decomposed), plus one destination (a division: IndexOp) per true element;
//  - CSS:  L + C + (C + Gs) + S + 2E + 2E_a   (S = elements rescanned by the "optimized" first scanning
//          method the paper implemented, at most L), one destination per busy slice and per segment;
//  - CMS:  L + C + (C + Gs) + S + E + 2Gs + E_a + 2Gr.
// With d = 1 and S = L these are the paper's L + C + 6E + 2E_a, 2L + 2C + 3E + 2E_a (Gs ≤ E) and
// 2L + 2C + 2E + 2Gs + E_a + 2Gr.
// On an array of rank d > 1 the local arrays are d-dimensional, and section 6.4's one-dimensional
// model ("for simplicity in modeling we consider only a one-dimensional input array") leaves out
// their index arithmetic (IndexOp: SPARC v7 has neither an integer multiply nor a divide
// instruction, each is a software routine):
//  - SSS keeps "a local index on each dimension, a tile number" per element and ranks it by
//    "rank(x) = initial-rank of x + PS_f(i_{d-1}, ..., i_1, i_0 div W_0)": the row-major offsets of
//    PS_f(i_{d-1}, ..., i_1, t_0) and of A_l(i_{d-1}, ..., i_0) (or, in UNPACK, of the result element)
//    from the saved indices, d-1 multiply-adds each, per kept element;
//  - CSS/CMS walk "the k-th element of PS_c" for slices s_k (0 <= k < C) and rescan a slice "only if
//    there is at least one packed element in the slice": the slice's place in A_l and M_l,
//    (i_{d-1}, ..., i_1, t_0) from k, takes d-1 quotients and d-1 remainders per busy slice.
// A preliminary redistribution from CYCLIC (section 6.3) first runs communication detection as in
// Ramaswamy and Banerjee's redistribution routines (the paper's reference [7]): for every partner
// processor the FALLS of the two layouts are intersected dimension by dimension, one line segment
// of the source layout at a time (T_i per dimension), so one detection phase is P·ΣT_i intersections
// (WorkKind::Intersection). Redistribution of selected data needs one phase (sender side), of whole
// arrays two ("one for elements to be sent and the other for those to be received"). Its receiver
// decomposes each pair's global index into d indices ("we may need to decompose the global index into
// r indices on the receiver"): i_k = (g div Π_{j<k} N_j) mod N_k, a quotient for each of the d-1 upper
// dimensions and a remainder for each of the d-1 lower ones (SPARC v7's software .div/.rem: IndexOp
// each), 2(d-1) in all, before the d local indices of the BLOCK temporary arrays.
#pragma once

#include <string>

#include "redist/pack/geometry.hpp"
#include "redist/transport/work.hpp"
#include "redist/transport/work_model.hpp"

namespace redist::pack {

/// The paper's local work of PACK's initial scan (SSS keeps d+3 items per true element).
Work paper_initial_scan(Index rank_d, Index local, Index true_elements, bool simple_storage);
/// The paper's work of the final step and message composition: SSS (simple=true), CSS or CMS (compact
/// message). `busy_slices` hold at least one true element: CSS/CMS find the owner of each one's first
/// rank, then of each segment's end (a division each).
Work paper_compose(Index slices, Index busy_slices, Index true_elements, Index rescanned, Index segments, bool simple,
                   bool compact_message);
/// The paper's work of decomposing the received messages into V.
Work paper_decompose(Index received, Index received_segments, bool compact_message);
/// Row-major offsets computed from `records` kept elements' saved local indices, one array each.
Work paper_record_offsets(Index rank_d, Index records);
/// The coordinates (i_{d-1}, ..., i_1, t_0) of `busy_slices` slices rescanned, from their numbers k.
Work paper_slice_coordinates(Index rank_d, Index busy_slices);
/// One phase of communication detection from `from` to BLOCK: P·ΣT_i FALLS intersections.
Work paper_detection(const Geometry& from);
/// The receiver's work in the redistribution of selected data (§6.3) to a BLOCK array of `local`
/// elements, of rank `rank_d`: the all-false temporary mask, then per received (global index, datum)
/// pair the index decomposed into `rank_d` indices, a local index per dimension, datum and mask stored.
Work paper_selected_receive(Index rank_d, Index local, Index received);

/// Memory accesses of one element-wise addition x[j] += y[j] in the paper's C loops: two reads, one
/// write (the vector additions of the direct prefix-reduction-sum and of the final step).
inline constexpr Index kPaperAccessesPerAdd = 3;
/// Substeps 2 and 3 of one intermediate step (Fig. 2) on base-rank arrays PS_i, RS_i of `elements`
/// entries whose `segments` segment totals initialise PS_{i+1}, RS_{i+1} (1 in the last step: Size).
Work paper_intermediate_step(Index elements, Index segments);
/// One summation PS_i <- PS_i + PS_{i+1} of the final step (§5.4) over the `elements` entries of PS_i.
Work paper_base_rank_sum(Index elements);

}  // namespace redist::pack
