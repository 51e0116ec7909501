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

// Pass by pass over every rank count, rather than every pass of one count before the next: the
// slowdowns are ratios of each count's fastest time to the reference's (one rank a core), and a slow
// spell of the machine (minutes, on some machines) then falls on every count's same pass, which each
// count's fastest pass leaves out, not on all the passes of some counts (one calibration measured
// 4 and 6 ranks 1.2-1.3 × slower than the ones minutes before and after it, and priced every
// oversubscribed run that much too slow).
std::vector<SharedCopy> measure_shared_copies(const MpiLauncher& launcher, Index cores, int passes) {
  std::vector<SharedCopy> out = {{std::max<Index>(1, cores), 0, 0}};
  for (const Index n : oversubscribed_rank_counts(cores)) out.push_back({n, 0, 0});
  for (int pass = 0; pass < passes; ++pass) {
    for (SharedCopy& fastest : out) {
      const Index n = fastest.ranks;
      const SharedCopy copy = launcher.read_json(static_cast<int>(n), "sharedcopy --json", [n](const nlohmann::json& json) {
        return SharedCopy{n, json.at("bytes").get<double>(), json.at("seconds").get<double>(),
                          json.value("index_seconds", 0.0)};
      });
      if (pass == 0 || copy.seconds < fastest.seconds) fastest.seconds = copy.seconds;
      if (pass == 0 || copy.index_seconds < fastest.index_seconds) fastest.index_seconds = copy.index_seconds;
      fastest.bytes = copy.bytes;
    }
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

void measure_shared_core_round_trips(const MpiLauncher& launcher, Index cores, int passes, NetworkMeasurements& network) {
  const Index c = std::max<Index>(1, cores);
  network.shared_core.clear();
  for (const Index n : oversubscribed_rank_counts(c)) {
    SharedCoreRoundTrip fastest{n, 0};
    for (int pass = 0; pass < passes; ++pass) {
      const double round_trip = launcher.read_json(
          static_cast<int>(n), "pingpong --shared-core " + std::to_string(c) + " --seconds-per-size 0.1 --json",
          [](const nlohmann::json& json) { return json.at("round_trip").get<double>(); });
      if (pass == 0 || round_trip < fastest.round_trip) fastest.round_trip = round_trip;
    }
    network.shared_core.push_back(fastest);
  }
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
