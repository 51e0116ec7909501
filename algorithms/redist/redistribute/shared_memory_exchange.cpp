#include "redist/redistribute/shared_memory_exchange.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace redist {

ExchangeTimes exchange_shared_memory(Transport& transport, const RankPlan& plan, ExchangeBuffers& buffers,
                                     const UnpackMessages& unpack_messages) {
  const Rank me = transport.rank();
  ExchangeTimes times;
  std::vector<Rank> to;
  std::vector<const std::byte*> data;
  for (std::size_t k = 0; k < plan.sends.size(); ++k) {
    if (plan.sends[k].peer == me) continue;
    to.push_back(plan.sends[k].peer);
    data.push_back(buffers.send_data(k));
    ++times.messages_sent;
    times.bytes_sent += buffers.send_bytes(k);
  }
  const auto self_send = peer_index(plan.sends, me);
  const std::byte* own = self_send ? buffers.send_data(*self_send) : nullptr;
  const double start = transport.now();
  transport.publish_messages(to, data);
  for (std::size_t k = 0; k < plan.receives.size(); ++k) {
    const Rank from = plan.receives[k].peer;
    const std::byte* message = from == me ? own : transport.published_message(from);
    if (message == nullptr && !transport.phantom() && plan.receives[k].elements > 0) {
      throw std::logic_error("rank " + std::to_string(from) + " published no message for rank " + std::to_string(me));
    }
    const double before = transport.now();
    unpack_messages({&k, 1}, {&message, 1});
    times.unpack += transport.now() - before;
  }
  transport.barrier();  // the senders' buffers are read: they may go
  times.comm = transport.now() - start - times.unpack;
  return times;
}

}  // namespace redist
