// An MPI-3 shared-memory window whose segments every rank of one node reads directly: what the
// shared-memory exchange's message area and SharedArray's storage are both made of.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "redist/transport/transport.hpp"

namespace redist::mpi {

/// Collective over `comm`: whether all its ranks share one node's memory.
bool on_one_node(MPI_Comm comm);

struct SharedWindow {
  MPI_Win window = MPI_WIN_NULL;
  std::vector<std::byte*> segments;  ///< every rank's segment, as mapped in this process
  std::byte* mine = nullptr;         ///< this rank's segment
};

/// Collective over `comm` (whose ranks share a node): `bytes` on this rank, each segment on its own
/// pages, in a passive epoch for the window's lifetime (MPI_Win_sync, the memory barrier readers of
/// other ranks' segments need, is valid only within one).
SharedWindow allocate_shared_window(MPI_Comm comm, Index bytes);

/// Collective: ends the epoch and frees the window (nothing when it is MPI_WIN_NULL).
void free_shared_window(SharedWindow& window);

}  // namespace redist::mpi
