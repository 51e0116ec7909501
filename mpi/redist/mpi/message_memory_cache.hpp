// Message memory kept between redistributions of an MPI process. A fresh multi-megabyte buffer is
// fresh pages: the first touch of each one faults into the kernel, which zeroes it — as costly as
// the copy into it, and paid on every call (profile of bench_mpi_vs_pdgemr2d: a quarter of all
// time went to page faults). Kept blocks are already mapped; they are also asked to be backed by
// transparent huge pages, so that even the first call faults once per 2 MiB instead of per 4 KiB.
#pragma once

#include <cstddef>

#include "redist/transport/transport.hpp"

namespace redist::mpi {

/// At least `bytes` bytes from the process's cache, returned to it when the handle goes.
/// Thread-safe. The cache keeps blocks under redist's rule (redist/core/kept_blocks.hpp): kept and
/// used together no more than the most ever used at once, the least recently returned freed first.
MessageMemory cached_message_memory(std::size_t bytes);

/// Frees every block the cache holds (blocks in use are freed when they come back).
void release_cached_message_memory();

}  // namespace redist::mpi
