#include "redist/calibration/network_measurements.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>


namespace redist::calibration {

PingPong measure_ping_pong(const MpiLauncher& launcher, Index max_bytes, double seconds_per_size) {
  return launcher.read_json(
      2, fmt::format("pingpong --max-bytes {} --seconds-per-size {} --json", max_bytes, seconds_per_size),
      [](const nlohmann::json& json) {
        return PingPong{json.at("bytes").get<std::vector<Index>>(), json.at("seconds").get<std::vector<double>>()};
      });
}

void keep_fastest(PingPong& fastest, const PingPong& pass) {
  if (pass.bytes != fastest.bytes || pass.seconds.size() != fastest.seconds.size()) {
    throw std::runtime_error("ping-pong passes measured different sizes");
  }
  for (std::size_t i = 0; i < pass.seconds.size(); ++i) fastest.seconds[i] = std::min(fastest.seconds[i], pass.seconds[i]);
}

NetworkMeasurements fit_ping_pong(const PingPong& ping_pong) {
  if (ping_pong.bytes.size() < 2 || ping_pong.bytes.size() != ping_pong.seconds.size()) {
    throw std::runtime_error("a ping-pong of fewer than two sizes, or sizes and times not paired");
  }
  NetworkMeasurements n;
  // On a shared machine a size may be measured while another process holds the core: a point more
  // than twice as slow as both its neighbours (its one neighbour at an end) is such a spike; it is
  // dropped (and listed) before the fit.
  const std::vector<double>& seconds = ping_pong.seconds;
  for (std::size_t i = 0; i < ping_pong.bytes.size(); ++i) {
    const double before = i > 0 ? seconds[i - 1] : seconds[i + 1];
    const double after = i + 1 < seconds.size() ? seconds[i + 1] : seconds[i - 1];
    const bool spike = seconds[i] > 2 * std::max(before, after);
    (spike ? n.dropped_bytes : n.bytes).push_back(ping_pong.bytes[i]);
    (spike ? n.dropped_seconds : n.seconds).push_back(seconds[i]);
  }
  n.fit = fit_piecewise(n.bytes, n.seconds, 3);
  n.latency = n.fit.pieces.front().intercept > 0 ? n.fit.pieces.front().intercept : n.seconds.front();
  const double slope = n.fit.pieces.back().slope;
  n.bandwidth = slope > 0 ? 1 / slope : n.bytes.back() / n.seconds.back();
  return n;
}

// Every rank sending to every other at once (`redist-mpi exchange`): what the node's memory moves
// for concurrent messages, as a redistribution sends them. Two ranks' ping-pong (one message at a
// time, its buffer in cache) measured it 0.5-1.5 times that on a shared virtual machine from one
// calibration to the next. Messages of 256 MiB / ranks², within 64 KiB-4 MiB (the ranks' buffers,
// twice ranks² messages: 512 MiB in all up to 64 ranks, 2 GiB at 128). With one rank per core, the
// link's bandwidth. Beyond, what the node moves when ranks outnumber cores: processes sharing a
// core copy their messages in turns, and each copy's speed follows from it
// (sim/redist/sim/oversubscribed_bandwidth.hpp; priced at the one-per-core figure, the comm phase of
// validate's 3-8-rank runs on 2 cores took 2-4 times the simulated one). How fast those copies are
// at 1.5, 2, 3 or 4 ranks per core differs between machines: each level is measured.
Exchange measure_exchange(const MpiLauncher& launcher, Index ranks) {
  Exchange e{ranks, std::clamp<Index>((Index{256} << 20) / (ranks * ranks), Index{64} << 10, Index{4} << 20), 0};
  e.bandwidth = launcher.read_json(static_cast<int>(ranks), fmt::format("exchange --bytes {} --json", e.bytes),
                                   [](const nlohmann::json& json) { return json.at("bandwidth").get<double>(); });
  return e;
}

// With ranks 0 and 1 each sharing its core with a computing rank, a message waits for the computing
// rank's slice to end and the reply for the other's, which began as the first ended: a round trip is
// one slice. On one core the two ranks and the computing one take turns: two slices.
double measure_busy_round_trip(const MpiLauncher& launcher, Index cores) {
  return launcher.read_json(static_cast<int>(cores + 2), "pingpong --busy --seconds-per-size 0.3 --json",
                            [](const nlohmann::json& json) { return json.at("round_trip").get<double>(); });
}

double time_slice_of(double busy_round_trip, Index cores) { return cores == 1 ? busy_round_trip / 2 : busy_round_trip; }

}  // namespace redist::calibration
