#include "redist/redistribute/async_exchange.hpp"

namespace redist {

ExchangeTimes exchange_async(Transport& transport, const RankPlan& plan, ExchangeBuffers& buffers,
                             const UnpackMessages& unpack_messages) {
  const Rank me = transport.rank();
  ExchangeTimes times;

  std::vector<Request> receives;
  std::vector<std::size_t> receive_plan;  // receives[i] fills plan.receives[receive_plan[i]]
  for (std::size_t k = 0; k < plan.receives.size(); ++k) {
    if (plan.receives[k].peer == me) continue;
    receives.push_back(transport.irecv(plan.receives[k].peer, buffers.recv_data(k), buffers.recv_bytes(k), kDataTag));
    receive_plan.push_back(k);
  }
  transport.barrier();
  const double start = transport.now();

  std::vector<Request> sends;
  for (std::size_t k = 0; k < plan.sends.size(); ++k) {
    if (plan.sends[k].peer == me) continue;
    sends.push_back(transport.isend(plan.sends[k].peer, buffers.send_data(k), buffers.send_bytes(k), kDataTag));
    ++times.messages_sent;
    times.bytes_sent += buffers.send_bytes(k);
  }

  const auto timed_unpack = [&](std::span<const std::size_t> ks, std::span<const std::byte* const> data) {
    const double before = transport.now();
    unpack_messages(ks, data);
    times.unpack += transport.now() - before;
  };
  const auto timed_unpack_one = [&](std::size_t k, const std::byte* data) { timed_unpack({&k, 1}, {&data, 1}); };
  // The data that stays on this rank goes straight from the send buffer.
  const auto self_send = peer_index(plan.sends, me);
  const auto self_recv = peer_index(plan.receives, me);
  const auto unpack_local = [&] {
    if (self_send && self_recv) timed_unpack_one(*self_recv, buffers.send_data(*self_send));
  };
  if (plan.unpack_order == UnpackOrder::SourceRank) {
    // Plan order is source-rank order: wait for each message in turn, the local part in its place.
    for (std::size_t i = 0, k = 0; k < plan.receives.size(); ++k) {
      if (plan.receives[k].peer == me) {
        unpack_local();
        continue;
      }
      transport.wait_any(std::span<Request>(&receives[i++], 1));
      timed_unpack_one(k, buffers.recv_data(k));
    }
  } else {
    unpack_local();  // while messages travel
    std::vector<std::size_t> arrived;
    std::vector<const std::byte*> data;
    for (std::size_t left = receives.size(); left > 0;) {
      const std::vector<Completion> done = transport.wait_some(receives);
      arrived.clear();
      data.clear();
      for (const Completion& c : done) {
        arrived.push_back(receive_plan[c.index]);
        data.push_back(buffers.recv_data(arrived.back()));
      }
      timed_unpack(arrived, data);
      left -= done.size();
    }
  }
  transport.wait_all(sends);
  times.comm = transport.now() - start - times.unpack;
  return times;
}

}  // namespace redist
