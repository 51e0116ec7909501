#include "redist/predict/predicted_comm.hpp"

#include <algorithm>

namespace redist {

double concurrent_messages_seconds(const std::vector<RankMessage>& messages, const MachineModel& model) {
  if (messages.empty()) return 0;
  std::vector<double> posting(static_cast<std::size_t>(model.hosts), 0.0);
  std::vector<double> completing(static_cast<std::size_t>(model.hosts), 0.0);
  std::vector<double> load(model.links.size(), 0.0);
  double latency = 0, fat_pipe = 0;
  for (const RankMessage& m : messages) {
    const Index from = model.host_of(m.from), to = model.host_of(m.to);
    posting[static_cast<std::size_t>(from)] += model.prices.send_overhead;
    completing[static_cast<std::size_t>(to)] += model.prices.recv_overhead;
    const ModelRoute& route = model.route(from, to);
    latency = std::max(latency, route.latency);
    for (std::size_t link : route.links) {
      const ModelLink& l = model.links[link];
      if (l.shared) {
        load[link] += static_cast<double>(m.bytes);
      } else {
        fat_pipe = std::max(fat_pipe, static_cast<double>(m.bytes) / l.bandwidth);
      }
    }
  }
  double data = fat_pipe;
  for (std::size_t link = 0; link < load.size(); ++link) data = std::max(data, load[link] / model.links[link].bandwidth);
  // A host's cores share its ranks' overheads.
  const auto cores = static_cast<double>(model.cores);
  return *std::max_element(posting.begin(), posting.end()) / cores + latency + data +
         *std::max_element(completing.begin(), completing.end()) / cores;
}

double barrier_seconds(Index ranks, const MachineModel& model) {
  if (model.barrier_latency >= 0) return model.barrier_latency;
  double seconds = 0;
  for (Index distance = 1; distance < ranks; distance *= 2) {
    std::vector<RankMessage> round;
    for (Index r = 0; r < ranks; ++r) round.push_back({r, (r + distance) % ranks, 0});
    seconds += concurrent_messages_seconds(round, model);
  }
  return seconds;
}

}  // namespace redist
