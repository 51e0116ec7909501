#include "redist/transport/node_memory.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

namespace redist {

double NodeMemory::rank_bandwidth(double bytes, Index copying) const {
  const double alone = copy_bandwidth.at(bytes);
  return std::min(alone, node_bandwidth.at(bytes) / static_cast<double>(std::max<Index>(1, copying)));
}

double NodeMemory::copy_seconds(double bytes, Index copying) const {
  return bytes <= 0 ? 0.0 : bytes / rank_bandwidth(bytes, copying);
}

namespace {

// The curve's value at `size`, linear in log(size) between two of its points (from its second one
// on: its first, at 0, stands for the smallest size measured), its first and last values beyond them.
// Warm bandwidths fall steeply where a working set outgrows a cache level, and calibrate's rows lie
// 4x apart: a step would keep the smaller row's bandwidth up to 4x its size.
double log_interpolated(const PiecewiseCurve& curve, double size) {
  const std::vector<double>& starts = curve.starts();
  const std::vector<double>& values = curve.values();
  const auto above = std::upper_bound(starts.begin(), starts.end(), size);
  if (above == starts.end() || above - starts.begin() < 2) return curve.at(size);
  const std::size_t k = static_cast<std::size_t>(above - starts.begin());
  const double share = std::log(size / starts[k - 1]) / std::log(starts[k] / starts[k - 1]);
  return values[k - 1] + share * (values[k] - values[k - 1]);
}

}  // namespace

std::optional<double> NodeMemory::warm_bandwidth(const WorkingSet& set) const {
  if (!cached || set.node > cached->cache_bytes) return std::nullopt;
  return log_interpolated(cached->bandwidth, static_cast<double>(set.rank) / 2);
}

double NodeMemory::copy_seconds(double bytes, Index copying, const std::optional<WorkingSet>& set) const {
  if (bytes <= 0) return 0.0;
  if (set) {
    if (const std::optional<double> warm = warm_bandwidth(*set)) return bytes / *warm;
  }
  return copy_seconds(bytes, copying);
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
