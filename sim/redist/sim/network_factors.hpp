// Message-size-dependent network factors that SimGrid 3.32 cannot read from a platform: its
// `network/latency-factor` and `network/bandwidth-factor` configs take one number each. A platform's
// root zone may carry them as piecewise curves (`redist calibrate` writes the ones its ping-pong fit
// finds: Open MPI switches protocol around 4-16 KiB), which are installed as the network model's
// factor callbacks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <simgrid/s4u/Engine.hpp>

namespace redist::sim {

/// Zone properties holding the curves, in SimGrid's factor syntax: "size:factor;size:factor", each
/// factor applying from its size (bytes) up to the next one's.
inline constexpr std::string_view kLatencyFactorsProperty = "redist.latency_factors";
inline constexpr std::string_view kBandwidthFactorsProperty = "redist.bandwidth_factors";

/// A factor per range of message sizes.
class PiecewiseFactors {
 public:
  /// Parses "size:factor;..." (sizes strictly increasing from 0, factors finite and positive, or
  /// also 0 with `zero_allowed`: a latency may vanish, a bandwidth not); throws
  /// std::invalid_argument naming what is wrong.
  static PiecewiseFactors parse(std::string_view text, bool zero_allowed);
  /// The factor of a message of `bytes`.
  double at(double bytes) const;

 private:
  std::vector<double> starts_;
  std::vector<double> factors_;
};

/// Installs the root zone's curves, if it has any, as the loaded platform's latency and bandwidth
/// factor callbacks; throws std::runtime_error (naming `platform`) when a curve is malformed.
void apply_network_factors(const simgrid::s4u::Engine& engine, const std::string& platform);

}  // namespace redist::sim
