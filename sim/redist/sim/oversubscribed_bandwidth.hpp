// Messages between processes that outnumber their node's cores. MPI moves a message inside a node
// by a CPU copy: its receiver copies it out of the sender's memory (a single-copy transfer, as Open
// MPI's shared-memory transport makes with the kernel's cross-memory attach), and the send
// completes once the receiver has taken it. With one process per core these copies overlap and the
// node's memory link carries the message; when processes share cores, each copies in its turn, and
// a core's copies for all its processes add up. `redist calibrate` measures the second case as an
// all-to-all beyond the cores and writes what the node moved, B, on its memory link; every byte of
// that all-to-all was copied once, by C cores at once, so that a copy runs at B / C bytes per
// second (docs/ARCHITECTURE.md §5). How fast that is depends on how many processes share each core,
// so calibrate measures B at each level of ranks per core it is run at, and the link declares them
// as a curve.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "redist/core/piecewise_curve.hpp"
#include "redist/transport/platform_properties.hpp"

namespace redist::sim {

// Link property kOversubscribedBandwidthProperty (platform_properties.hpp): bytes per second, positive.

/// The link's oversubscribed bandwidth, 0 when it declares none; throws std::runtime_error naming
/// the platform and the link when the value is not a positive number.
double oversubscribed_bandwidth(const simgrid::s4u::Link& link, const std::string& platform);

/// The link's oversubscribed bandwidths by ranks per core (redist.oversubscribed_bandwidths,
/// redist/transport/ranks_per_core.hpp), empty where it declares none; throws std::runtime_error
/// naming the platform and the link for a value that is not such a curve.
PiecewiseCurve oversubscribed_bandwidths(const simgrid::s4u::Link& link, const std::string& platform);

/// For each rank of `rank_hosts` (a host each): the bytes per second at which its CPU copies a
/// message from another rank of its host, B / cores, where its host holds more ranks than
/// cores and the host's route to itself crosses a link declaring an oversubscribed bandwidth (the
/// smallest, B; where a link declares them by ranks per core, its value at the host's); else 0, and
/// its messages are flows over the network. Checks every link's values.
std::vector<double> message_copy_rates(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                       const std::string& platform);

}  // namespace redist::sim
