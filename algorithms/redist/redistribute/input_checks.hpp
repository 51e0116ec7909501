// What redistribute() checks before it moves anything, as text, so that the simulator (which
// throws) and MPI (whose ranks must first agree, redist/mpi/agreement.hpp) share one set of checks.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "redist/layout/layout.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist {

/// The complaint every rank has alike about the call, or empty: unknown method or schedule names,
/// an element size below 1, layouts of different array sizes, more ranks needed than the `ranks` of the run.
std::string call_problem(const Layout& source, const Layout& dest, const RedistributeOptions& options, Rank ranks);

/// Rank `rank`'s complaint about its own buffers, or empty: bytes held against what the layouts
/// need, a null buffer where the layout gives the rank elements, or source and destination in
/// overlapping storage (redistribute() does not work in place). O(1): the layouts' local sizes and
/// the two address ranges.
std::string buffer_problem(const Layout& source, const Layout& dest, const RedistributeOptions& options, Rank rank,
                           std::span<const std::byte> source_local, std::span<const std::byte> dest_local);

/// The same for a rank whose plan reads `source_elements` and writes `dest_elements` elements of its
/// storage (RedistributionPlan keeps them: a plan made from layouts or any other way).
std::string buffer_problem(Index source_elements, Index dest_elements, Index elem_bytes,
                           std::span<const std::byte> source_local, std::span<const std::byte> dest_local);

/// Only the sizes of that check: for buffers whose storage the ranks have agreed on already.
std::string buffer_size_problem(Index source_elements, Index dest_elements, Index elem_bytes,
                                std::span<const std::byte> source_local, std::span<const std::byte> dest_local);

/// The same before a relabelling is known (options.relabel other than "none"): the destination
/// buffer's size is then checked against the largest part a destination processor holds, and
/// exactly by buffer_problem once the plan has placed the processors.
std::string buffer_problem_before_planning(const Layout& source, const Layout& dest, const RedistributeOptions& options,
                                           Rank rank, std::span<const std::byte> source_local,
                                           std::span<const std::byte> dest_local);

}  // namespace redist
