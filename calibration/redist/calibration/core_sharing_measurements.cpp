#include "redist/calibration/core_sharing_measurements.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "redist/transport/ranks_per_core.hpp"

namespace redist::calibration {
namespace {

// A curve whose k-th value applies from level k's ranks per core (the first from 0) to the next's.
PiecewiseCurve by_level(const std::vector<Index>& ranks, const std::vector<double>& values, Index cores,
                        bool zero_allowed = false) {
  if (ranks.empty()) return {};
  std::vector<double> starts;
  for (std::size_t k = 0; k < ranks.size(); ++k) starts.push_back(k == 0 ? 0.0 : ranks_per_core(ranks[k], cores));
  return PiecewiseCurve::from_points(starts, values, zero_allowed);
}

// T(n) / (ceil(n / C) T(C)) of the times `seconds` picks, as a curve over ranks per core.
PiecewiseCurve slowdown_curve(const std::vector<SharedCopy>& copies, Index cores, double SharedCopy::*seconds) {
  if (copies.size() < 2) return {};
  const Index c = std::max<Index>(1, cores);
  const SharedCopy& reference = copies.front();
  if (reference.ranks > c || reference.*seconds <= 0) {
    throw std::invalid_argument("the shared copies' reference is not within the cores, or took no time");
  }
  std::vector<Index> ranks;
  std::vector<double> slowdowns;
  for (std::size_t k = 1; k < copies.size(); ++k) {
    const Index turns = (copies[k].ranks + c - 1) / c;  // the busiest core's ranks, one after another
    ranks.push_back(copies[k].ranks);
    slowdowns.push_back(copies[k].*seconds / (static_cast<double>(turns) * reference.*seconds));
  }
  return by_level(ranks, slowdowns, c);
}

}  // namespace

std::vector<Index> oversubscribed_rank_counts(Index cores) {
  const Index c = std::max<Index>(1, cores);
  std::vector<Index> out;
  for (const Index n : {(3 * c + 1) / 2, 2 * c, 3 * c, 4 * c}) {
    if (n > c && (out.empty() || out.back() != n)) out.push_back(n);
  }
  return out;
}

std::vector<SharedCopy> measure_shared_copies(const MpiLauncher& launcher, Index cores) {
  std::vector<Index> counts = {std::max<Index>(1, cores)};
  for (const Index n : oversubscribed_rank_counts(cores)) counts.push_back(n);
  std::vector<SharedCopy> out;
  for (const Index n : counts) {
    out.push_back(launcher.read_json(static_cast<int>(n), "sharedcopy --json", [n](const nlohmann::json& json) {
      return SharedCopy{n, json.at("bytes").get<double>(), json.at("seconds").get<double>(),
                        json.value("index_seconds", 0.0)};
    }));
  }
  return out;
}

PiecewiseCurve copy_slowdown_curve(const std::vector<SharedCopy>& copies, Index cores) {
  return slowdown_curve(copies, cores, &SharedCopy::seconds);
}

PiecewiseCurve work_slowdown_curve(const std::vector<SharedCopy>& copies, Index cores) {
  for (const SharedCopy& c : copies) {
    if (c.index_seconds <= 0) return {};
  }
  return slowdown_curve(copies, cores, &SharedCopy::index_seconds);
}

std::vector<SharedCoreRoundTrip> measure_shared_core_round_trips(const MpiLauncher& launcher, Index cores) {
  const Index c = std::max<Index>(1, cores);
  std::vector<SharedCoreRoundTrip> out;
  for (const Index n : oversubscribed_rank_counts(c)) {
    out.push_back({n, launcher.read_json(static_cast<int>(n),
                                         "pingpong --shared-core " + std::to_string(c) + " --seconds-per-size 0.1 --json",
                                         [](const nlohmann::json& json) { return json.at("round_trip").get<double>(); })});
  }
  return out;
}

PiecewiseCurve switch_cost_curve(const NetworkMeasurements& network, Index cores) {
  const double one_way = network.fit.pieces.empty() ? 0.0 : network.fit.at(8);
  std::vector<Index> ranks;
  std::vector<double> costs;
  for (const SharedCoreRoundTrip& r : network.shared_core) {
    ranks.push_back(r.ranks);
    costs.push_back(std::max(0.0, r.round_trip / 2 - one_way));
  }
  return by_level(ranks, costs, std::max<Index>(1, cores), true);
}

PiecewiseCurve oversubscribed_bandwidth_curve(const std::vector<Exchange>& exchanges, Index cores) {
  std::vector<Index> ranks;
  std::vector<double> bandwidths;
  for (const Exchange& e : exchanges) {
    ranks.push_back(e.ranks);
    bandwidths.push_back(e.bandwidth);
  }
  return by_level(ranks, bandwidths, std::max<Index>(1, cores));
}

}  // namespace redist::calibration
