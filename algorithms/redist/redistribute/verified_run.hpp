// A redistribution on generated data that checks its result: every element of the destination
// must hold the value of its global index, so nothing is lost and nothing misplaced.
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "redist/indexing/matrix_copy.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist {

/// Writes the test value of global element g (a hash of g, so that misplacements are caught) into
/// `out`, elem_bytes bytes.
void fill_element(Index g, std::byte* out, Index elem_bytes);

struct VerifiedReport {
  RedistributeReport report;
  std::optional<bool> verified;  ///< empty on phantom runs: no bytes to check
  Index misplaced = 0;           ///< destination elements holding a wrong value
};

/// Fills this rank's source elements, redistributes them, and checks its destination elements.
/// With `executions` > 1 the redistribution is planned once and the plan executed that many times
/// (redistribution_plan.hpp): the index phase is the plan's, pack, comm and unpack the mean of the
/// executions, the total the plan plus one mean execution; the destination is cleared before each
/// execution and checked after the last.
VerifiedReport redistribute_and_verify(Transport& transport, const Layout& source, const Layout& dest,
                                       const RedistributeOptions& options, int executions = 1);

/// Moves rank's part of a 2-D copy, as the rank sees it, between its dense local storages: `a`
/// holds its part of sub(A)'s whole matrix, `b` of sub(B)'s (both empty on a phantom transport).
using MatrixCopyMove = std::function<RedistributeReport(Transport& transport, const SubmatrixCopy& copy,
                                                        std::span<const std::byte> a, std::span<std::byte> b)>;

/// redist's way of moving a 2-D copy, as the ScaLAPACK drop-in does: its submatrix plan
/// (submatrix_plan) made once, its interval scans charged to the index phase, and executed
/// `executions` times by the default exchange (phases as redistribute_and_verify's).
MatrixCopyMove redist_matrix_copy(Index elem_bytes, int executions = 1);

/// Fills every rank's local storage of A with test values, B with other ones, moves the copy by
/// `move`, and checks B: each element of sub(B) holds its sub(A) element's value, every other
/// element is untouched. Source processes on ranks.source_rank(p), destination ones on
/// ranks.dest_rank(q) (RankMap, not relabelled). Precondition: no matrix_copy_problem.
VerifiedReport copy_and_verify(Transport& transport, const MatrixCopy& copy, const RankMap& ranks, Index elem_bytes,
                               const MatrixCopyMove& move);

}  // namespace redist
