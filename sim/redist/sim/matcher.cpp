#include "redist/sim/matcher.hpp"

#include <algorithm>
#include <cstring>

namespace redist::sim {

Matcher::Matcher(Rank ranks)
    : unexpected_(static_cast<std::size_t>(ranks)), posted_(static_cast<std::size_t>(ranks)) {}

bool matches(const ReceiveSide& receive, const SendSide& send) {
  return receive.traffic == send.traffic && receive.tag == send.tag &&
         (receive.from == kAnySource || receive.from == send.source);
}

// Taking the oldest match of each queue is what makes messages between one pair of ranks with one
// tag non-overtaking, and receives with the same criteria complete in the order they were posted.
Posting<ReceiveSide> Matcher::post_send(Rank dest, const SendSide& send) {
  auto& waiting = posted_[static_cast<std::size_t>(dest)];
  const auto it = std::find_if(waiting.begin(), waiting.end(),
                               [&](const QueuedReceive& q) { return matches(q.receive, send); });
  if (it == waiting.end()) {
    const Channel channel = take_channel();
    unexpected_[static_cast<std::size_t>(dest)].push_back({send, channel});
    return {channel, std::nullopt};
  }
  Posting<ReceiveSide> out{it->channel, it->receive};
  waiting.erase(it);
  return out;
}

Posting<SendSide> Matcher::post_receive(Rank self, const ReceiveSide& receive) {
  auto& queued = unexpected_[static_cast<std::size_t>(self)];
  const auto it =
      std::find_if(queued.begin(), queued.end(), [&](const QueuedSend& q) { return matches(receive, q.send); });
  if (it == queued.end()) {
    const Channel channel = take_channel();
    posted_[static_cast<std::size_t>(self)].push_back({receive, channel});
    return {channel, std::nullopt};
  }
  Posting<SendSide> out{it->channel, it->send};
  queued.erase(it);
  return out;
}

Channel Matcher::take_channel() {
  if (free_channels_.empty()) return next_channel_++;
  const Channel channel = free_channels_.back();
  free_channels_.pop_back();
  return channel;
}

void Matcher::release(Channel channel) { free_channels_.push_back(channel); }

std::size_t Matcher::unexpected_sends() const {
  std::size_t n = 0;
  for (const auto& q : unexpected_) n += q.size();
  return n;
}

std::size_t Matcher::posted_receives() const {
  std::size_t n = 0;
  for (const auto& q : posted_) n += q.size();
  return n;
}

void deliver(const SendSide& send, const ReceiveSide& receive, Rank dest, bool phantom) {
  ReceiveStatus& status = *receive.status;
  status.source = send.source;
  status.bytes = send.bytes;
  status.acknowledgement = send.acknowledgement;
  if (send.bytes > receive.capacity) {
    status.error = "message of " + std::to_string(send.bytes) + " bytes from rank " + std::to_string(send.source) +
                   " (tag " + std::to_string(send.tag) + ") exceeds the receive capacity of " +
                   std::to_string(receive.capacity) + " bytes on rank " + std::to_string(dest);
    return;
  }
  // MPI lets neither side touch its buffer before completion, so copying at match time is
  // indistinguishable from copying on arrival and needs no hook into SimGrid's data path.
  if (!phantom && send.bytes > 0) std::memcpy(receive.data, send.data, static_cast<std::size_t>(send.bytes));
}

}  // namespace redist::sim
