#include "redist/transport/node_memory.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace redist {

double NodeMemory::rank_bandwidth(double bytes, Index copying) const {
  return std::min(alone(bytes), together(bytes) / static_cast<double>(std::max<Index>(1, copying)));
}

double NodeMemory::copy_seconds(double bytes, Index copying, CopyLoop loop, double touched) const {
  return bytes <= 0 ? 0.0 : loop_factor(loop) * (bytes / rank_bandwidth(resident_bytes(bytes, touched), copying));
}

NodeMemory NodeMemory::from_measurements(const std::vector<CopyBandwidthMeasurement>& measurements) {
  std::map<double, double> alone, together;  // by bytes
  for (const CopyBandwidthMeasurement& m : measurements) {
    if (!(m.bandwidth > 0) || !(m.bytes > 0) || m.ranks < 1) {
      throw std::invalid_argument("a copy bandwidth measurement of " + std::to_string(m.bandwidth) + " B/s for " +
                                  std::to_string(m.bytes) + " bytes on " + std::to_string(m.ranks) + " ranks");
    }
    if (m.ranks == 1) alone[m.bytes] = std::max(alone[m.bytes], m.bandwidth);
    together[m.bytes] = std::max(together[m.bytes], static_cast<double>(m.ranks) * m.bandwidth);
  }
  std::vector<double> starts, c, node;
  for (const auto& [bytes, total] : together) {
    const auto one = alone.find(bytes);
    if (one == alone.end()) {
      throw std::invalid_argument("no one-rank copy measured at " + std::to_string(bytes) + " bytes");
    }
    starts.push_back(starts.empty() ? 0.0 : bytes);
    c.push_back(one->second);
    node.push_back(std::max(total, one->second));
  }
  return {PiecewiseCurve::from_points(starts, c, false), PiecewiseCurve::from_points(std::move(starts), node, false)};
}

}  // namespace redist
