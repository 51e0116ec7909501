// Ping-pong between ranks 0 and 1: one-way message time per size, the curve `redist calibrate` fits.
#pragma once

#include <CLI/CLI.hpp>

#include "redist/core/int_math.hpp"

namespace redist::mpi::cli {

struct PingPongOptions {
  Index min_bytes = 1, max_bytes = Index{16} << 20;
  double seconds_per_size = 0.05;  ///< time spent measuring each size (at least 5 round trips)
  bool json = false;
  void add_to(CLI::App& app);
};

/// Collective over MPI_COMM_WORLD (2 ranks or more; ranks beyond 1 only wait). Sizes: powers of two
/// and the midpoints 1.5·2^k between min_bytes and max_bytes; each the fastest round trip / 2.
int run_pingpong(const PingPongOptions& options);

}  // namespace redist::mpi::cli
