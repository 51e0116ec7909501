// A rank's copies on a host that holds more ranks than cores, slowed by the factor its host declares
// for that many ranks per core (redist.copy_slowdown, redist/transport/ranks_per_core.hpp): what
// `redist calibrate` measured ranks sharing cores to lose, beyond taking turns, as they pack at once.
#pragma once

#include <string>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "redist/core/piecewise_curve.hpp"

namespace redist::sim {

/// The host's copy slowdown curve over ranks per core, empty where it declares none. Throws
/// std::runtime_error naming the platform and the host for a value that is not such a curve.
PiecewiseCurve read_copy_slowdowns(const simgrid::s4u::Host& host, const std::string& platform);

/// For each rank (its host in `rank_hosts`): the factor on its copies at its host's ranks per core
/// (copy_slowdown_at); 1 where the host holds no more ranks than cores or declares no curve.
std::vector<double> copy_slowdowns(const std::vector<simgrid::s4u::Host*>& rank_hosts, const std::string& platform);

}  // namespace redist::sim
