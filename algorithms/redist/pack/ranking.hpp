// Paper 001's parallel ranking (§5): the rank of every true mask element in row-major order of the
// global array, computed without moving any array element. Local array M_l is a sequence of
// C = (Π_{i≥1} L_i)·T_0 slices of W_0 elements (§5.2).
//  1. Initial step: count the true elements of each slice: PS_0 = RS_0 (count_slices; the simple
//     storage scheme also records each element there, see schemes).
//  2. Intermediate step i = 0..d-1 (Fig. 2): vector prefix-reduction-sum of PS_i/RS_i, shape
//     (L_{d-1},..,L_{i+1},T_i), along grid dimension i; segmented exclusive local prefix sum of RS_i
//     (segments of W_{i+1} rows) added to PS_i; segment totals initialise PS_{i+1} = RS_{i+1}.
//  3. Final step: PS_i += PS_{i+1} from i = d-2 down to 0 gives PS_f, the global rank of the first
//     true element of each slice; an element's rank is PS_f of its slice plus its rank in the slice.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "redist/pack/geometry.hpp"
#include "redist/pack/paper_work.hpp"
#include "redist/transport/phases.hpp"
#include "redist/pack/prefix_reduction_sum.hpp"

namespace redist::pack {

struct Ranking {
  std::vector<Index> slice_count;  ///< PS_c: true elements per local slice
  std::vector<Index> slice_base;   ///< PS_f: global rank of the first true element of each slice
  Index size = 0;                  ///< Size: true elements of the whole mask
};

/// Initial step (local scan): true elements per slice. Counts one ElementScanned per element.
std::vector<Index> count_slices(const Geometry& geometry, std::span<const std::uint8_t> mask, Work& work);

/// Intermediate and final steps on every rank of the grid (all ranks call it). Charges its local
/// work; time in prefix-reduction-sums is added to times.prs (each started as `accounting` says,
/// phase_timing.hpp). Tags 100..100+2d are used.
Ranking finish_ranking(Transport& transport, const Geometry& geometry, std::vector<Index> slice_count,
                       PrsAlgorithm algorithm, Phases& times, WorkModel accounting = WorkModel::Redist);

/// Global rank of every local element (-1 where the mask is false), from a finished ranking.
std::vector<Index> element_ranks(const Geometry& geometry, std::span<const std::uint8_t> mask, const Ranking& ranking);

}  // namespace redist::pack
