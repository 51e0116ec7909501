// The network of the machine at hand, measured for `redist calibrate` under mpirun by redist-mpi:
// a ping-pong of two ranks from 1 byte up (one-way time against message size, fitted piece by piece),
// and all-to-alls of every rank at once, one rank per core and at each level of ranks per core beyond.
#pragma once

#include <vector>

#include "redist/calibration/least_squares.hpp"
#include "redist/calibration/mpi_launcher.hpp"

namespace redist::calibration {

/// An all-to-all of `ranks` ranks, `bytes` per pair: what they moved per second together.
struct Exchange {
  Index ranks = 0, bytes = 0;
  double bandwidth = 0;
};

/// Ranks r and r + C sharing core r, ping-ponging 8 bytes at `ranks` ranks, the others waiting
/// (`redist-mpi pingpong --shared-core`): rank 0's pair's median round trip.
struct SharedCoreRoundTrip {
  Index ranks = 0;
  double round_trip = 0;
};

struct NetworkMeasurements {
  std::vector<Index> bytes;  ///< ping-pong sizes kept for the fit
  std::vector<double> seconds;  ///< their one-way times, each at its fastest pass
  PiecewiseFit fit;
  double latency = 0;    ///< of the link: the first piece's intercept
  double bandwidth = 0;  ///< the last piece's: one message alone, the factor curve's reference
  Exchange exchange;        ///< one rank per core, all at once: the link's capacity
  /// Beyond the cores, at each of oversubscribed_rank_counts (core_sharing_measurements.hpp):
  /// its messages' CPU copies when ranks outnumber cores, at that many ranks per core.
  std::vector<Exchange> oversubscribed;
  /// Seconds a rank that is ready waits for its core while a computing rank holds it: the time slice
  /// of ranks that outnumber cores (sim/redist/sim/core_turns.hpp).
  double time_slice = 0;
  /// At each of oversubscribed_rank_counts: what a core takes to pass from one rank to another.
  std::vector<SharedCoreRoundTrip> shared_core;
  std::vector<Index> dropped_bytes;  ///< outliers left out of the fit
  std::vector<double> dropped_seconds;
};

/// One ping-pong's one-way times by message size (`redist-mpi pingpong`).
struct PingPong {
  std::vector<Index> bytes;
  std::vector<double> seconds;
};

/// A ping-pong of two ranks up to `max_bytes`, `seconds_per_size` each size. Throws
/// std::runtime_error when redist-mpi fails.
PingPong measure_ping_pong(const MpiLauncher& launcher, Index max_bytes, double seconds_per_size);

/// `fastest` with each size at the faster of its time and `pass`'s. Throws std::runtime_error when
/// the two measured different sizes.
void keep_fastest(PingPong& fastest, const PingPong& pass);

/// The link from a ping-pong: spikes (a point over twice both its neighbours) dropped, the rest
/// fitted in up to 3 pieces.
NetworkMeasurements fit_ping_pong(const PingPong& ping_pong);

/// An all-to-all of `ranks` ranks (`redist-mpi exchange`); messages of 256 MiB / ranks², within
/// 64 KiB-4 MiB.
Exchange measure_exchange(const MpiLauncher& launcher, Index ranks);

/// The median round trip of ranks 0 and 1 of `cores` + 2 ranks, each beside a computing rank on its
/// core (`redist-mpi pingpong --busy`, the launcher binding ranks to cores in turn).
double measure_busy_round_trip(const MpiLauncher& launcher, Index cores);

/// The time slice that round trip shows: one slice where each of ranks 0 and 1 has a core of its
/// own, two on one core.
double time_slice_of(double busy_round_trip, Index cores);

}  // namespace redist::calibration
