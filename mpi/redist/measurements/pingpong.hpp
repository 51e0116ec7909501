// Ping-pong between ranks 0 and 1: one-way message time per size, the curve `redist calibrate` fits;
// or, with the other ranks computing beside them, the round trip of a rank that waits for a core.
#pragma once

#include "redist/core/int_math.hpp"

namespace redist::measurements {

struct PingPongOptions {
  Index min_bytes = 1, max_bytes = Index{16} << 20;
  double seconds_per_size = 0.05;  ///< time spent measuring each size (at least 5 round trips)
  bool json = false;
  /// Ranks 2 and up compute while 0 and 1 ping-pong 8 bytes for seconds_per_size: prints the median
  /// round trip, {"round_trip":s}.
  bool busy = false;
  /// Where positive, the cores C the ranks are bound to in turn: ranks r and r + C, which share
  /// core r, ping-pong 8 bytes for seconds_per_size (every such pair at once), the other ranks wait
  /// in a barrier: prints rank 0's pair's median round trip, {"round_trip":s}.
  Index shared_core = 0;
};

/// Collective over MPI_COMM_WORLD (2 ranks or more; ranks beyond 1 only wait). Sizes: powers of two
/// and the midpoints 1.5·2^k between min_bytes and max_bytes; each the fastest round trip / 2.
int run_pingpong(const PingPongOptions& options);

/// The --busy run: collective over MPI_COMM_WORLD (3 ranks or more). With more ranks than cores and
/// ranks bound round-robin to cores, ranks 0 and 1 share theirs with computing ranks: each message
/// waits for the computing rank's time slice to end (sim/redist/sim/core_turns.hpp).
int run_busy_pingpong(const PingPongOptions& options);

/// The --shared-core run: collective over MPI_COMM_WORLD (more ranks than `shared_core`). With ranks
/// bound to cores in turn, each message of a pair wakes a rank that waits on the core its partner
/// holds: a round trip is two passes of the core from one rank to the other, beside whatever the
/// core's other ranks do while they wait (sim/redist/sim/core_turns.hpp).
int run_shared_core_pingpong(const PingPongOptions& options);

}  // namespace redist::measurements
