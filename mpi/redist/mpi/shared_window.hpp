// An MPI-3 shared-memory window whose segments every rank of one node reads directly: what the
// shared-memory exchange's message area and SharedArray's storage are both made of.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
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

/// Collective over `comm` (whose ranks share a node; its error handler MPI_ERRORS_RETURN): `bytes`
/// on this rank, each segment on its own pages, in a passive epoch for the window's lifetime
/// (MPI_Win_sync, the memory barrier readers of other ranks' segments need, is valid only within
/// one). Nothing, on every rank, where the window cannot be had on some rank (Open MPI backs it by a
/// file in /dev/shm: a small /dev/shm refuses it): the ranks agree on the outcome (one
/// MPI_Allreduce), and `why` says MPI's reason as this rank saw it. A window made on some ranks only
/// is left to MPI_Finalize (freeing it is collective over ranks that have none).
std::optional<SharedWindow> try_allocate_shared_window(MPI_Comm comm, Index bytes, std::string& why);

/// What a shared-memory exchange throws on every rank when its window cannot be had: its caller
/// moves the data as MPI messages instead (redistribute/redistribute.cpp's execute()).
class SharedMemoryUnavailable : public PublicationUnavailable {
 public:
  using PublicationUnavailable::PublicationUnavailable;
};

/// Collective: ends the epoch and frees the window (nothing when it is MPI_WIN_NULL).
void free_shared_window(SharedWindow& window);

}  // namespace redist::mpi
