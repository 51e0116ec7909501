// One pass of every measurement `redist calibrate` makes, and the fastest of several passes kept
// measurement by measurement. A calibration runs its passes one after another, each measuring
// everything once, rather than every pass of one measurement before the next: a machine's speed
// changes for tens of seconds at a time (one process's 8 MiB copies took 42 to 70 ms from one launch
// to the next, seconds apart, on a shared virtual machine), and each measurement's fastest pass then
// comes from anywhere in the whole calibration, not from the one stretch its passes would share.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "redist/calibration/core_sharing_measurements.hpp"
#include "redist/calibration/mpi_launcher.hpp"
#include "redist/calibration/network_measurements.hpp"

namespace redist::calibration {

struct MeasurementPass {
  PingPong ping_pong;
  Exchange exchange;                      ///< one rank per core (at least 2 ranks)
  std::vector<Exchange> oversubscribed;   ///< at each of oversubscribed_rank_counts
  double busy_round_trip = 0;             ///< measure_busy_round_trip
  std::vector<SharedCoreRoundTrip> shared_core;
  std::vector<SharedCopy> shared_copies;  ///< the reference at one rank per core, then each level
  nlohmann::json local_work;              ///< `redist-mpi localwork --json` at one rank per core
};

/// Every measurement once, in this order: the ping-pong, the all-to-alls, the time slice, the
/// shared-core round trips, packing at once, the local work. Throws std::runtime_error when
/// redist-mpi fails or its output is not what it should be.
MeasurementPass measure_pass(const MpiLauncher& launcher, Index cores, Index max_bytes, double seconds_per_size);

/// `fastest` with each of its measurements at the faster of its own and `pass`'s: times at their
/// least, bandwidths at their most, and every local-work row at its fastest (fastest_rows). Throws
/// std::runtime_error when the two passes measured different things.
void keep_fastest(MeasurementPass& fastest, const MeasurementPass& pass);

}  // namespace redist::calibration
