// All ranks exchanging at once: what the node's shared memory moves when every rank sends to every
// other, the capacity of the link `redist calibrate` gives a calibrated platform's messages.
#pragma once

#include "redist/core/int_math.hpp"

namespace redist::measurements {

struct ExchangeOptions {
  Index bytes = Index{4} << 20;  ///< from each rank to each other rank
  int repeat = 10;
  bool json = false;
};

/// Collective over MPI_COMM_WORLD (2 ranks or more). Each repetition writes every send buffer anew,
/// as packing would, posts all receives, then all sends, and waits for all; its time is the slowest
/// rank's. Prints the fastest repetition and the bytes all ranks moved per second in it.
int run_exchange(const ExchangeOptions& options);

}  // namespace redist::measurements
