// `redist-mpi sharedcopy --json`: every rank packs the same plan's messages at once, caches emptied
// first, and the time from the first rank's start to the last rank's end is what the node took. Run
// with more ranks than cores, it shows what ranks sharing a core lose beyond taking turns, which
// `redist calibrate` measures at each level of ranks per core (redist/transport/ranks_per_core.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include "redist/core/int_math.hpp"

namespace redist::mpi::cli {

struct SharedCopyOptions {
  Index elements = Index{1} << 21;  ///< of the 1-D array whose rank-0 plan each rank packs
  int repeat = 5;
  bool json = false;
  void add_to(CLI::App& app);
};

/// Collective over MPI_COMM_WORLD. Each rank packs rank 0's messages of CYCLIC(3) over 2 ranks ->
/// CYCLIC(8) over 4 of `elements` doubles (half the array, in runs of 1-3 elements), `repeat`
/// times; rank 0 prints the fastest repetition: {"ranks":R,"bytes":B (packed by each rank),
/// "seconds":S (first start to last end)}.
int run_shared_copy(const SharedCopyOptions& options);

}  // namespace redist::mpi::cli
