// Message-size-dependent network factors that SimGrid 3.32 cannot read from a platform: its
// `network/latency-factor` and `network/bandwidth-factor` configs take one number each. A platform's
// root zone may carry them as piecewise curves (`redist calibrate` writes the ones its ping-pong fit
// finds: Open MPI switches protocol around 4-16 KiB), which are installed as the network model's
// factor callbacks.
#pragma once

#include <string>
#include <string_view>

#include <simgrid/s4u/Engine.hpp>

#include "redist/transport/platform_properties.hpp"

namespace redist::sim {

// Zone properties kLatencyFactorsProperty and kBandwidthFactorsProperty (platform_properties.hpp) hold
// the curves, in SimGrid's factor syntax: "size:factor;size:factor", each factor applying from its
// size (bytes) up to the next one's.

/// Installs the root zone's curves, if it has any, as the loaded platform's latency and bandwidth
/// factor callbacks; throws std::runtime_error (naming `platform`) when a curve is malformed.
void apply_network_factors(const simgrid::s4u::Engine& engine, const std::string& platform);

}  // namespace redist::sim
