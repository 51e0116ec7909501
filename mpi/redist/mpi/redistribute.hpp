// The public API for MPI programs: one collective call moves a distributed array between layouts.
//
//   #include <redist/mpi/redistribute.hpp>
//   auto from = redist::mpi::scalapack_layout({.rows = m, .cols = n, .row_block = 64, .col_block = 64,
//                                              .grid_rows = 2, .grid_cols = 2});
//   auto to   = redist::mpi::scalapack_layout({.rows = m, .cols = n, .row_block = 1, .col_block = n,
//                                              .grid_rows = 4, .grid_cols = 1});
//   redist::mpi::redistribute<double>(MPI_COMM_WORLD, from, to, my_a, my_b);   // method: default
//
// A redistribution done again and again is cheaper as a Plan (plan.hpp): computed once, executed
// many times. Every rank of the communicator calls it with the same layouts and options. Rank k of the
// communicator is source processor k - ranks.source_first and destination processor
// k - ranks.dest_first (RankMap); ranks beyond both sets take part with empty buffers.
#pragma once

#include <mpi.h>

#include <span>
#include <string>

#include "redist/layout/layout.hpp"
#include "redist/mpi/scalapack_layout.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::mpi {

/// The options of the algorithms' redistribute(): names (or "default"), element size, rank map.
using Options = RedistributeOptions;

/// Collective over `comm`. Before moving anything, the ranks agree that the input is good: same
/// layouts and options everywhere, enough ranks, each buffer of the size its layout needs (checked
/// before the plan is made), not null where it holds elements, source and destination apart (no
/// work in place), known names. If any rank's input is bad, every rank throws std::invalid_argument with the same
/// message, naming the first rank at fault — no rank is left waiting. Errors of MPI itself during
/// the exchange throw std::runtime_error on the rank that sees them (call MPI_Abort then).
RedistributeReport redistribute(MPI_Comm comm, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const Options& options = {});

/// Collective over `comm`, with the same input on every rank (checked as redistribute() does):
/// `options` with every "auto" (indexing, schedule, relabel) replaced by the candidate predicted
/// fastest on options.model, and a relabelling applied to options.ranks — what a Plan made with
/// `options` runs. Every rank gets the same answer. With `kept_plan`, fastest at each execution of
/// a kept Plan (the index phase, paid once, left out of the ranking).
Options choose(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options, bool kept_plan = false);

/// Memory is kept between calls (kept, it is not faulted in again): this process's message buffers,
/// the large blocks of the plans' run lists (no more than the plans ever held at once), and the
/// shared-memory window of each communicator whose ranks share a node (as large as the bytes a rank
/// sends, kept with the communicator and freed with it). This frees the buffers and the run-list
/// blocks; the window stays.
void release_buffers();

/// Collective over `comm`: release_buffers(), and the shared-memory window kept with `comm` too.
void release_buffers(MPI_Comm comm);

/// Typed convenience: elem_bytes is sizeof(T).
template <class T>
RedistributeReport redistribute(MPI_Comm comm, const Layout& source, const Layout& dest, std::span<const T> source_local,
                                std::span<T> dest_local, Options options = {}) {
  options.elem_bytes = static_cast<Index>(sizeof(T));
  return redistribute(comm, source, dest, std::as_bytes(source_local), std::as_writable_bytes(dest_local), options);
}

}  // namespace redist::mpi
