// What ranks get where they outnumber the cores, measured at each level of ranks per core that
// validate and users run (1.5, 2, 3 and 4 ranks per core; on C cores up to 4C ranks): their copies
// and their other work, as all ranks build a plan and pack at once (`redist-mpi sharedcopy`); their
// messages, as all ranks send to all (`redist-mpi exchange`); and what a core loses passing from
// one rank to another, as two ranks sharing it ping-pong (`redist-mpi pingpong --shared-core`).
// How a machine shares a core between processes — the kernel's and a hypervisor's scheduling, how
// MPI's waiting processes poll, each core's share of the memory — differs from machine to machine,
// so no level's figure is derived from another's: each is written into the platform as a point of
// a curve over ranks per core (redist/transport/ranks_per_core.hpp).
#pragma once

#include <vector>

#include "redist/calibration/mpi_launcher.hpp"
#include "redist/calibration/network_measurements.hpp"
#include "redist/core/piecewise_curve.hpp"

namespace redist::calibration {

/// The rank counts beyond `cores` calibrate measures: ceil(1.5 C), 2C, 3C and 4C, each once.
std::vector<Index> oversubscribed_rank_counts(Index cores);

/// `ranks` ranks each packing `bytes` at once, and each building its plan: the node's seconds, first
/// start to last end.
struct SharedCopy {
  Index ranks = 0;
  double bytes = 0;
  double seconds = 0;
  double index_seconds = 0;  ///< 0: not measured (a redist-mpi from before plans were timed)
};

/// `redist-mpi sharedcopy` at `cores` ranks (the reference: one rank per core) and at each of
/// oversubscribed_rank_counts, in that order. Throws std::runtime_error when redist-mpi fails.
std::vector<SharedCopy> measure_shared_copies(const MpiLauncher& launcher, Index cores);

/// The copy slowdown at each level beyond the cores: T(n) / (ceil(n / C) T(C)), the node's time at n
/// ranks over what taking turns gives (the busiest core's ranks one after another, each at what one
/// rank per core took); as a curve over ranks per core, its first level from 0. `copies`: the
/// reference first (ranks ≤ cores), then the levels in increasing order. Empty without levels.
PiecewiseCurve copy_slowdown_curve(const std::vector<SharedCopy>& copies, Index cores);

/// The work slowdown likewise, of building the plan (index_seconds); empty where any is unmeasured.
PiecewiseCurve work_slowdown_curve(const std::vector<SharedCopy>& copies, Index cores);

/// `redist-mpi pingpong --shared-core` at each of oversubscribed_rank_counts. Throws
/// std::runtime_error when redist-mpi fails.
std::vector<SharedCoreRoundTrip> measure_shared_core_round_trips(const MpiLauncher& launcher, Index cores);

/// The switch cost at each level beyond the cores: half a round trip of two ranks sharing a core
/// (two passes of the core from one to the other) less the one-way time of its 8-byte message
/// between ranks on their own cores (the ping-pong's fit), at least 0; as a curve over ranks per
/// core, its first level from 0. Empty without any.
PiecewiseCurve switch_cost_curve(const NetworkMeasurements& network, Index cores);

/// The all-to-all bandwidths measured beyond the cores (levels in increasing order), as a curve
/// over ranks per core, its first level from 0. Empty without any.
PiecewiseCurve oversubscribed_bandwidth_curve(const std::vector<Exchange>& exchanges, Index cores);

}  // namespace redist::calibration
