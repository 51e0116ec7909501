// A redistribution on generated data that checks its result: every element of the destination
// must hold the value of its global index, so nothing is lost and nothing misplaced.
#pragma once

#include <optional>

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

}  // namespace redist
