// What a redistribution touches on each rank, for the rule of warm copies (transport/node_memory.hpp,
// WorkingSet): the rank's source part and its destination part, local_size x element bytes each.
// The simulator's `redistribute` experiment states it for every rank, and the prediction computes
// the same, so that both price a rank's copies warm or cold alike. The buffers messages are packed
// into and received in are not counted (node_memory.hpp says why).
#pragma once

#include <vector>

#include "redist/indexing/rank_map.hpp"
#include "redist/indexing/submatrix_plan.hpp"
#include "redist/layout/layout.hpp"

namespace redist {

/// The bytes rank `rank` touches redistributing `source` to `dest` with the processors on `ranks`:
/// the local size of the source processor it plays, if any, plus that of the destination processor
/// it plays, if any, times `elem_bytes`.
Index redistribution_working_set(const Layout& source, const Layout& dest, const RankMap& ranks, Rank rank,
                                 Index elem_bytes);

/// The same for every rank of the run (ranks.ranks_needed of the layouts), in rank order.
std::vector<Index> redistribution_working_sets(const Layout& source, const Layout& dest, const RankMap& ranks,
                                               Index elem_bytes);

/// A 2-D copy's (pdgemr2d's, a submatrix copy's) for each of `ranks` ranks: the rank's parts of the
/// two whole matrices, `from` and `to`, as the run of a redistribution between their layouts counts
/// them. Whole matrices rather than the submatrices' parts: a caller holds and fills its whole local
/// matrices (redist-mpi's pdgemr2d reference writes all of B before each call), and a submatrix's
/// rows of column-major storage are strided through its columns, so its cache lines span more than
/// its elements.
std::vector<Index> matrix_copy_working_sets(const SubmatrixCopy& copy, Index ranks, Index elem_bytes);

}  // namespace redist
