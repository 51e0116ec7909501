#include "redist/mpi/direct_exchange.hpp"

#include <vector>

#include "redist/mpi/run_datatype.hpp"
#include "redist/redistribute/exchange_buffers.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist::mpi {
namespace {

// Where each packed message of one direction sits in one buffer; in-place messages take no room.
struct PackedArea {
  std::vector<Index> offset;  // per plan entry; -1 for a message that travels in place
  MessageMemory memory;
  std::byte* at(std::size_t k) const { return memory.get() + offset[k]; }
};

PackedArea packed_area(const std::vector<PeerPlan>& peers, const std::vector<RunDatatype>& types, Index elem_bytes,
                       Rank me, Transport& transport) {
  PackedArea area{std::vector<Index>(peers.size(), -1), nullptr};
  Index total = 0;
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer == me || types[k].valid()) continue;
    area.offset[k] = total;
    total += peers[k].elements * elem_bytes;
  }
  area.memory = transport.message_memory(static_cast<std::size_t>(total));
  return area;
}

std::vector<RunDatatype> datatypes(const std::vector<PeerPlan>& peers, Index elem_bytes, Rank me) {
  std::vector<RunDatatype> types(peers.size());
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer != me && sends_in_place(peers[k], elem_bytes)) types[k] = RunDatatype::of(peers[k], elem_bytes);
  }
  return types;
}

// Plan entries for other ranks, those after `me` first, then those before.
std::vector<std::size_t> rotated_after(const std::vector<PeerPlan>& peers, Rank me) {
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer > me) order.push_back(k);
  }
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer < me) order.push_back(k);
  }
  return order;
}

}  // namespace

MessageDatatypes MessageDatatypes::for_plan(const RankPlan& plan, Index elem_bytes, Rank me) {
  return {datatypes(plan.sends, elem_bytes, me), datatypes(plan.receives, elem_bytes, me)};
}

void exchange_direct(MpiTransport& transport, const RankPlan& plan, const MessageDatatypes& types, Index elem_bytes,
                     std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                     RedistributeReport& report) {
  const Rank me = transport.rank();
  const double start = transport.now();
  double unpacking = 0;

  const std::vector<RunDatatype>& receive_types = types.receives;
  PackedArea incoming = packed_area(plan.receives, receive_types, elem_bytes, me, transport);
  std::vector<Request> receives;
  std::vector<std::size_t> receive_plan;  // receives[i] fills plan.receives[receive_plan[i]]
  for (std::size_t k = 0; k < plan.receives.size(); ++k) {
    const PeerPlan& from = plan.receives[k];
    if (from.peer == me) continue;
    receives.push_back(receive_types[k].valid()
                           ? transport.irecv_typed(from.peer, dest_local.data(), receive_types[k].get(), kDataTag)
                           : transport.irecv(from.peer, incoming.at(k), from.elements * elem_bytes, kDataTag));
    receive_plan.push_back(k);
  }

  // Messages that travel in place go first; then every packed message is packed in one sweep of
  // source storage (each cache line read once for all peers) and sent. Each group in rank order
  // from the next rank on, so that the ranks do not all start with rank 0.
  const std::vector<RunDatatype>& send_types = types.sends;
  PackedArea outgoing = packed_area(plan.sends, send_types, elem_bytes, me, transport);
  std::vector<std::size_t> in_place, packed;
  for (const std::size_t k : rotated_after(plan.sends, me)) (send_types[k].valid() ? in_place : packed).push_back(k);
  std::vector<Request> sends;
  const auto send = [&](std::size_t k) {
    const PeerPlan& to = plan.sends[k];
    sends.push_back(send_types[k].valid()
                        ? transport.isend_typed(to.peer, source_local.data(), send_types[k].get(), kDataTag)
                        : transport.isend(to.peer, outgoing.at(k), to.elements * elem_bytes, kDataTag));
    ++report.messages_sent;
    report.bytes_sent += to.elements * elem_bytes;
  };
  for (const std::size_t k : in_place) send(k);
  const double pack_start = transport.now();
  std::vector<const PeerPlan*> to_pack;
  std::vector<std::byte*> buffers;
  for (const std::size_t k : packed) {
    to_pack.push_back(&plan.sends[k]);
    buffers.push_back(outgoing.at(k));
  }
  pack_messages(to_pack, source_local, elem_bytes, buffers);
  const double packing = transport.now() - pack_start;
  for (const std::size_t k : packed) send(k);

  const double local_start = transport.now();
  copy_local(plan, me, source_local, dest_local, elem_bytes);
  unpacking += transport.now() - local_start;

  std::vector<const PeerPlan*> arrived;
  std::vector<const std::byte*> data;
  for (std::size_t left = receives.size(); left > 0;) {
    const std::vector<Completion> done = transport.wait_some(receives);
    left -= done.size();
    arrived.clear();
    data.clear();
    for (const Completion& c : done) {
      const std::size_t k = receive_plan[c.index];
      if (receive_types[k].valid()) continue;  // already in place
      arrived.push_back(&plan.receives[k]);
      data.push_back(incoming.at(k));
    }
    if (arrived.empty()) continue;
    const double before = transport.now();
    unpack_messages(arrived, data, elem_bytes, dest_local);
    unpacking += transport.now() - before;
  }
  transport.wait_all(sends);
  report.phases.pack = packing;
  report.phases.unpack = unpacking;
  report.phases.comm = transport.now() - start - packing - unpacking;
}

}  // namespace redist::mpi
