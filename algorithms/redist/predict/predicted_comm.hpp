// The communication time of a set of messages on a machine model, by a bottleneck argument: the
// messages start together; each host's CPU posts its ranks' sends one after the other, the data
// then takes as long as the busiest link needs to carry what crosses it, and each host's CPU
// completes its receives one after the other (flows sharing a link divide its bandwidth, as
// SimGrid's max-min sharing does when they all start at once). Where a host holds more ranks than
// cores, a message between two of its ranks is no flow: its receiver's CPU copies it out of the
// sender's memory as it completes (MachineModel::message_copy_rate), and the send completes only
// then. A scheduled exchange is the sum of its steps, an asynchronous one a single set.
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

/// When `message` (one of `concurrent`, all started at once) has arrived, counted from its start, and
/// the parts of it its two ranks' CPUs spend: posting (the send overhead), crossing (the route's
/// latency and its bytes, each shared link giving it its max-min share: a flow of b bytes beside
/// flows of b_i is through after Σ min(b_i, b) / bandwidth) and completing (the receive overhead, and the receiver's copy where
/// the message is copied by CPUs: its send then completes with its receive). For exchanges whose
/// messages are each waited for on their own (ScaLAPACK's pdgemr2d).
struct MessageSeconds {
  double posting = 0, crossing = 0, completing = 0;
  bool send_waits_for_completion = false;
};
MessageSeconds message_seconds_among(const RankMessage& message, const std::vector<RankMessage>& concurrent,
                                     const MachineModel& model);

/// Seconds of one barrier among `ranks` ranks: the hardware barrier's latency, else ⌈log2 ranks⌉
/// rounds of zero-byte messages (SimGridTransport's dissemination barrier).
double barrier_seconds(Index ranks, const MachineModel& model);

}  // namespace redist
