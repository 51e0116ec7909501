// A rank's work on a host that holds more ranks than cores, slowed by the factors its host declares
// for that many ranks per core (redist/transport/ranks_per_core.hpp): redist.copy_slowdown on its
// copies, redist.work_slowdown on the rest of its work; what `redist calibrate` measured ranks
// sharing cores to lose, beyond taking turns, as they pack and build plans at once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "redist/core/piecewise_curve.hpp"

namespace redist::sim {

/// The host's slowdown curve over ranks per core under `property` (kCopySlowdownProperty or
/// kWorkSlowdownProperty), empty where it declares none. Throws std::runtime_error naming the
/// platform and the host for a value that is not such a curve.
PiecewiseCurve read_slowdowns(const simgrid::s4u::Host& host, std::string_view property, const std::string& platform);

/// For each rank (its host in `rank_hosts`): the factor at its host's ranks per core of the curve
/// under `property` (slowdown_at); 1 where the host holds no more ranks than cores or declares none.
std::vector<double> slowdowns(const std::vector<simgrid::s4u::Host*>& rank_hosts, std::string_view property,
                              const std::string& platform);

}  // namespace redist::sim
