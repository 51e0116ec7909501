// `redist-mpi run` allocates every rank's local arrays, their global indices (for verification) and
// the exchange buffers: the ranks of each node add up what they will need and refuse together,
// before anything is allocated, when it exceeds the node's MemAvailable (or --max-memory).
#pragma once

#include <cstdint>
#include <optional>

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist::measurements {

/// Bytes this rank will hold at its peak: per local element of the source and the destination, its
/// global index (8 bytes), its value, its copy in a message and, with --reference, pdgemr2d's copy.
std::optional<std::uint64_t> rank_peak_bytes(const Layout& source, const Layout& dest, const RankMap& ranks,
                                             int rank, Index elem_bytes, bool reference);

/// Collective over MPI_COMM_WORLD: throws std::invalid_argument (the same on every rank, naming the
/// first rank of the first node at fault) when a node's ranks together need more than memory_limit().
void agree_on_memory(std::optional<std::uint64_t> mine);

}  // namespace redist::measurements
