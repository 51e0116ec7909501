// What redistribute() checks before it moves anything, as text, so that the simulator (which
// throws) and MPI (whose ranks must first agree, redist/mpi/agreement.hpp) share one set of checks.
#pragma once

#include <cstddef>
#include <string>

#include "redist/layout/layout.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist {

/// The complaint every rank has alike about the call, or empty: unknown method or schedule names,
/// an element size below 1, layouts of different array sizes, more ranks needed than the `ranks` of the run.
std::string call_problem(const Layout& source, const Layout& dest, const RedistributeOptions& options, Rank ranks);

/// Rank `rank`'s complaint about its own buffers (bytes held against what the layouts need), or empty.
std::string buffer_problem(const Layout& source, const Layout& dest, const RedistributeOptions& options, Rank rank,
                           std::size_t source_bytes, std::size_t dest_bytes);

}  // namespace redist
