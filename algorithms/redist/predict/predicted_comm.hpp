// The communication time of a set of messages on a machine model, by a bottleneck argument: the
// messages start together; each host's CPU posts its ranks' sends one after the other, the data
// then takes as long as the busiest link needs to carry what crosses it, and each host's CPU
// completes its receives one after the other (flows sharing a link divide its bandwidth, as
// SimGrid's max-min sharing does when they all start at once). Where a host holds more ranks than
// cores, a message between two of its ranks is no flow: its sender's CPU copies it in as it posts,
// its receiver's copies it out as it completes (MachineModel::message_copy_rate). A scheduled
// exchange is the sum of its steps, an asynchronous one a single set.
#pragma once

#include <vector>

#include "redist/transport/machine_model.hpp"

namespace redist {

/// A message between two ranks.
struct RankMessage {
  Index from = 0;
  Index to = 0;
  Index bytes = 0;
};

/// Seconds until the last of `messages` has arrived and been completed, all posted at once.
double concurrent_messages_seconds(const std::vector<RankMessage>& messages, const MachineModel& model);

/// Seconds of one barrier among `ranks` ranks: the hardware barrier's latency, else ⌈log2 ranks⌉
/// rounds of zero-byte messages (SimGridTransport's dissemination barrier).
double barrier_seconds(Index ranks, const MachineModel& model);

}  // namespace redist
