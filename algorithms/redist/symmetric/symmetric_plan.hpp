// Who sends what in a symmetric redistribution, for one rank, by TR or SRA (paper 002 §3.3.3).
//
// TR sends every element of a line whose owner changes. SRA adds the paper's two optimisation
// phases: the sender leaves out element (d, f) when the destination q of line d held line f at the
// source (step 2, "minimise sending data sets"), and q rebuilds it from that twin (step 4,
// "minimise receiving data sets"). Message contents follow storage order on both sides.
//
// Work counted (priced by the platform), per rank:
//  - both methods: 2 index operations per local line on each side (global index, then the owner of the
//    other distribution: the paper's global_row_index and send/receive_index), and one table entry per
//    run of every packing and unpacking table;
//  - SRA only: the "brother" owner of every position on each side (2n index operations — indexing in
//    both dimensions) and the intersection test of every local element on each side (elements scanned).
#pragma once

#include "redist/indexing/rank_plan.hpp"
#include "redist/symmetric/symmetric_problem.hpp"

namespace redist {

struct SymmetricPlan {
  RankPlan exchange;  ///< sends and receives; this rank's own part (possibly empty) always included
  Index rebuilt = 0;  ///< destination elements SRA rebuilds from twins in this rank's source lines
};

/// The plan of rank `me` (< P). Runs are materialised only when `materialise` (real payloads);
/// element and run counts are exact either way. Adds the indexing work to `work`.
SymmetricPlan symmetric_plan(const SymmetricProblem& problem, SymmetricMethod method, Index me, bool materialise,
                             Work& work);

/// Work of rebuilding `elements` elements by transposition: each a strided one-element copy.
Work rebuild_work(Index elements, Index elem_bytes);

/// Paper 002's listing computes the owner of every element it packs or unpacks as
/// (global_row / y) % numproc: two integer divisions (by a block size, then by the processor
/// count, neither known at compile time), counted as two index operations per element.
Work listing_owner_work(Index elements);

/// SRA's local rebuild on rank `me`: every destination element (d, f) whose line d comes from another
/// rank and whose twin line f `me` held at the source is copied from that twin.
void rebuild_from_twins(const SymmetricProblem& problem, Index me, const std::byte* source_slab, std::byte* dest_slab,
                        Index elem_bytes);

}  // namespace redist
