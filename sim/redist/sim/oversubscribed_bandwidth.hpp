// A link's bandwidth when ranks outnumber cores. A node's CPUs copy the MPI messages between its
// processes (into shared memory and out); when processes share cores, each copies in its turn and
// the node moves less than with one process per core. `redist calibrate` measures both and writes
// the second as a property of the node's memory link; a run that puts more ranks on a host than
// it has cores moves its messages at that bandwidth, as MachineModel::run_by predicts them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

namespace redist::sim {

/// Link property: bytes per second, positive.
inline constexpr std::string_view kOversubscribedBandwidthProperty = "redist.oversubscribed_bandwidth";

/// The link's oversubscribed bandwidth, 0 when it declares none; throws std::runtime_error naming
/// the platform and the link when the value is not a positive number.
double oversubscribed_bandwidth(const simgrid::s4u::Link& link, const std::string& platform);

/// When some host holds more of `rank_hosts` (a rank's host each) than it has cores, every link of
/// the loaded platform that declares an oversubscribed bandwidth takes it.
void apply_oversubscribed_bandwidth(const simgrid::s4u::Engine& engine,
                                    const std::vector<simgrid::s4u::Host*>& rank_hosts, const std::string& platform);

}  // namespace redist::sim
