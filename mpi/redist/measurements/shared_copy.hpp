// What `redist-mpi sharedcopy --json` measures: every rank builds the same plan at once, then packs its
// messages at once, its arrays as its previous repetition left them (as repeated calls find them),
// and the time from the first rank's start to the last rank's end is what the node took. Run with
// more ranks than cores, it shows what ranks sharing a core lose beyond taking turns (among it, the
// caches' room their core-mates' work takes), which `redist calibrate` measures at each level of
// ranks per core (redist/transport/ranks_per_core.hpp).
#pragma once

#include "redist/core/int_math.hpp"

namespace redist::measurements {

struct SharedCopyOptions {
  Index elements = Index{1} << 21;  ///< of the 1-D array whose rank-0 plan each rank packs
  int repeat = 5;
  bool json = false;
};

/// Collective over MPI_COMM_WORLD. Each rank builds rank 0's plan of CYCLIC(3) over 2 ranks ->
/// CYCLIC(8) over 4 of `elements` doubles by Prylli's method, then packs its messages (half the
/// array, in runs of 1-3 elements), `repeat` times; rank 0 prints the fastest repetition of each:
/// {"ranks":R,"bytes":B (packed by each rank),"seconds":S (packing, first start to last end),
/// "index_seconds":I (building the plan, likewise)}.
int run_shared_copy(const SharedCopyOptions& options);

}  // namespace redist::measurements
