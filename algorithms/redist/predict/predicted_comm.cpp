#include "redist/predict/predicted_comm.hpp"

#include <algorithm>

namespace redist {

double concurrent_messages_seconds(const std::vector<RankMessage>& messages, const MachineModel& model) {
  if (messages.empty()) return 0;
  Index ranks = 0;
  for (const RankMessage& m : messages) ranks = std::max({ranks, m.from + 1, m.to + 1});
  // Each rank's overheads, one message after the other.
  std::vector<double> posting(static_cast<std::size_t>(ranks), 0.0), completing(posting.size(), 0.0);
  std::vector<double> load(model.links.size(), 0.0);
  double latency = 0, fat_pipe = 0;
  for (const RankMessage& m : messages) {
    const Index from = model.host_of(m.from), to = model.host_of(m.to);
    posting[static_cast<std::size_t>(m.from)] += model.prices.send_overhead;
    completing[static_cast<std::size_t>(m.to)] += model.prices.recv_overhead + model.switch_cost;
    const ModelRoute& route = model.route(from, to);
    latency = std::max(latency, route.latency);
    if (model.regime(m.from, m.to) == MessageRegime::CpuCopies) {  // copied by its receiver's CPU
      completing[static_cast<std::size_t>(m.to)] += static_cast<double>(m.bytes) / model.message_copy_rate;
      continue;
    }
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
  return model.busiest_host(posting) + latency + data + model.busiest_host(completing);
}

MessageSeconds message_seconds_among(const RankMessage& message, const std::vector<RankMessage>& concurrent,
                                     const MachineModel& model) {
  MessageSeconds out{model.prices.send_overhead, 0, model.prices.recv_overhead + model.switch_cost};
  const Index from = model.host_of(message.from), to = model.host_of(message.to);
  const ModelRoute& route = model.route(from, to);
  out.crossing = route.latency;
  const auto bytes = static_cast<double>(message.bytes);
  if (model.regime(message.from, message.to) == MessageRegime::CpuCopies) {  // copied by its receiver's CPU
    out.completing += bytes / model.message_copy_rate;
    out.send_waits_for_completion = true;
    return out;
  }
  double data = 0;
  for (const std::size_t link : route.links) {
    const ModelLink& l = model.links[link];
    if (!l.shared) {
      data = std::max(data, bytes / l.bandwidth);
      continue;
    }
    double shared = 0;  // what crosses the link before this message is through
    for (const RankMessage& other : concurrent) {
      const Index a = model.host_of(other.from), b = model.host_of(other.to);
      if (model.regime(other.from, other.to) == MessageRegime::CpuCopies) continue;
      const auto& links = model.route(a, b).links;
      if (std::find(links.begin(), links.end(), link) != links.end()) shared += std::min(static_cast<double>(other.bytes), bytes);
    }
    data = std::max(data, std::max(shared, bytes) / l.bandwidth);
  }
  out.crossing += data;
  return out;
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
