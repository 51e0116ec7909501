// MPI message matching for the simulated ranks, kept apart from SimGrid so it can be tested alone.
//
// Why our own matching instead of SimGrid's: an S4U mailbox matches the first send with the first
// receive, so a receive "from any rank" needs either one mailbox per receiver plus a match function
// (SMPI's way, through `simcall_comm_isend/irecv`, deprecated in SimGrid 3.35 and internal) or a
// matcher of our own. We keep MPI's two queues per receiving rank (posted receives, unexpected sends)
// in plain C++, and give every message its own rendezvous channel (a SimGrid mailbox): the side that
// posts first takes a free channel and starts its half of the communication on it; the side that
// posts second finds it here and starts the other half on the same channel. SimGrid then times the
// transfer as usual and we use only the public S4U API.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redist/transport/transport.hpp"

namespace redist::sim {

/// A rendezvous point carrying one message at a time; maps to one SimGrid mailbox.
using Channel = int;

/// Traffic the transport generates itself (barrier rounds) matches only its own kind, so it can
/// never be confused with an algorithm's messages whatever their tags.
enum class Traffic { User, Internal };

/// What the receiver learns once its receive is matched.
struct ReceiveStatus {
  Rank source = -1;
  Index bytes = 0;
  /// The channel on which the receiver acknowledges the message once it has copied it out of the
  /// sender's memory (a message copied by CPUs, SimGridTransport::copied_by_cpus); -1: none.
  Channel acknowledgement = -1;
  std::string error;  ///< non-empty when the message did not fit the receive buffer
};

struct SendSide {
  Rank source = 0;
  Tag tag = 0;
  Traffic traffic = Traffic::User;
  const std::byte* data = nullptr;
  Index bytes = 0;
  Channel acknowledgement = -1;  ///< as ReceiveStatus::acknowledgement
};

struct ReceiveSide {
  Rank from = kAnySource;
  Tag tag = 0;
  Traffic traffic = Traffic::User;
  std::byte* data = nullptr;
  Index capacity = 0;
  std::shared_ptr<ReceiveStatus> status;
};

/// Where a posted half goes, and the other half when one was already waiting.
template <class Other>
struct Posting {
  Channel channel = 0;
  std::optional<Other> matched;  ///< empty: queued; the other side will find it
};

class Matcher {
 public:
  explicit Matcher(Rank ranks);

  /// Matches a send to `dest` against dest's posted receives (oldest first) or queues it.
  Posting<ReceiveSide> post_send(Rank dest, const SendSide& send);
  /// Matches a receive of `self` against the sends queued for it (oldest first) or queues it.
  Posting<SendSide> post_receive(Rank self, const ReceiveSide& receive);
  /// Returns a matched channel to the pool, once both halves have been started on it.
  void release(Channel channel);

  /// Messages waiting for a receive, and receives waiting for a message (for diagnostics).
  std::size_t unexpected_sends() const;
  std::size_t posted_receives() const;

 private:
  struct QueuedSend {
    SendSide send;
    Channel channel;
  };
  struct QueuedReceive {
    ReceiveSide receive;
    Channel channel;
  };
  Channel take_channel();

  std::vector<std::deque<QueuedSend>> unexpected_;   // per destination, in posting order
  std::vector<std::deque<QueuedReceive>> posted_;    // per receiver, in posting order
  std::vector<Channel> free_channels_;               // reused last-in first-out
  Channel next_channel_ = 0;
};

/// True when a message with this envelope satisfies the receive (MPI's rule, plus the traffic kind).
bool matches(const ReceiveSide& receive, const SendSide& send);

/// Hands a matched message to its receive: sets source and size, copies the bytes unless phantom,
/// and records a truncation error instead of overflowing the receive buffer.
void deliver(const SendSide& send, const ReceiveSide& receive, Rank dest, bool phantom);

}  // namespace redist::sim
