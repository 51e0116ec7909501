// What writing memory new to the process costs beyond writing memory it has written before: the
// kernel's page fault and zeroing of every page (cost.byte_faulted). A program pays it where its
// memory is new: the first plan it builds, and blocks its allocator maps anew on every call
// (redist/pdgemr2d/call_buffer.hpp). Every rank measures at once, as a redistribution's ranks fault
// at once.
#pragma once

#include <nlohmann/json.hpp>

namespace redist::mpi::cli {

/// Collective over MPI_COMM_WORLD: {"bytes": W, "fresh": s, "warm": s}, the fastest of a few runs of
/// mapping W bytes, writing them and unmapping them, and of writing W bytes written before, each the
/// mean over the ranks.
nlohmann::ordered_json measure_first_touch();

}  // namespace redist::mpi::cli
