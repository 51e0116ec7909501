// How a message between two ranks is priced: the one place that decides it, for the simulator
// (sim/redist/sim/simgrid_transport.cpp, per message posted), the prediction (MachineModel::run_by
// and regime, predict/predicted_comm.cpp, predict/prediction.cpp) and the exchange a redistribution
// runs (redistribute/redistribute.cpp, on every message layer). Three regimes, the first that
// applies wins:
//   - shared publication: the exchange hands its messages over in memory every rank reads
//     (Transport::reserve_publication, redistribute/shared_memory_exchange.hpp): priced as the
//     copies in and out of the publication areas and the exchange's synchronisations, no message;
//   - CPU copies: two ranks of one host that holds more ranks than cores, whose route to itself
//     declares an oversubscribed bandwidth (docs/ARCHITECTURE.md §5): MPI's shared-memory transport
//     moves such a message by one CPU copy, the receiver's, out of the sender's memory as it
//     completes the receive, at the declared copy rate, and the send completes only once the
//     receiver has taken it; in between it takes only the route's latency;
//   - a flow over the route's links, sharing their bandwidth with the other flows.
#pragma once

#include <algorithm>
#include <vector>

#include "redist/core/int_math.hpp"

namespace redist {

enum class MessageRegime { SharedPublication, CpuCopies, Flow };

/// What decides a message's regime.
struct MessageFacts {
  /// Its exchange goes through shared publication: the message layer offers it for this exchange
  /// (Transport::shares_memory, or MPI's shared window call by call) and the exchange runs no
  /// schedule of steps (a step's messages stay messages).
  bool shared_publication = false;
  /// Sender and receiver are two ranks of one host.
  bool same_host = false;
  Index ranks_on_host = 1;  ///< the run's ranks on the sender's host
  Index cores = 1;          ///< that host's cores
  /// message_copy_rate of the host's route to itself (bytes per second; 0: none declared).
  double copy_rate = 0;
};

/// More ranks on a host than it has cores: they take turns on the cores, and their messages to each
/// other may be CPU copies.
constexpr bool ranks_outnumber_cores(Index ranks_on_host, Index cores) { return ranks_on_host > cores; }

constexpr MessageRegime message_regime(const MessageFacts& facts) {
  if (facts.shared_publication) return MessageRegime::SharedPublication;
  if (facts.same_host && ranks_outnumber_cores(facts.ranks_on_host, facts.cores) && facts.copy_rate > 0) {
    return MessageRegime::CpuCopies;
  }
  return MessageRegime::Flow;
}

/// Bytes per second at which a rank's CPU copies a message from another rank of its host, where
/// the ranks outnumber the host's `cores`, from the oversubscribed bandwidths that the links of the
/// host's route to itself declare (0 for none): B, the smallest declared, is what an all-to-all
/// beyond the cores moved, every byte of it copied once, by its receiver, all the cores copying at
/// once: B / cores. 0 where no link declares one (the messages are then flows).
inline double message_copy_rate(const std::vector<double>& route_oversubscribed_bandwidths, Index cores) {
  double smallest = 0;
  for (const double b : route_oversubscribed_bandwidths) {
    if (b > 0) smallest = smallest > 0 ? std::min(smallest, b) : b;
  }
  return smallest / static_cast<double>(cores);
}

}  // namespace redist
