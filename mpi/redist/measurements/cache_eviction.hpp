// Emptying the caches before a timed copy, so that what it touches next comes from memory.
#pragma once

namespace redist::measurements {

/// Writes more than a last-level cache holds: 256 MiB among the ranks of MPI_COMM_WORLD, which write
/// at once (at least 32 MiB each, for the caches a core keeps alone).
void evict_caches();

}  // namespace redist::measurements
