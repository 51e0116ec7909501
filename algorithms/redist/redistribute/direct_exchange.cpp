#include "redist/redistribute/direct_exchange.hpp"

#include "redist/redistribute/exchange_buffers.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist {
namespace {

constexpr Index kMinInPlacePieceBytes = 64;
constexpr Index kMinInPlaceRecordBytes = 256;

// Where each packed message of one direction sits in one buffer; messages in place take no room.
struct PackedMessages {
  std::vector<Index> offset;  // per plan entry; -1 for a message in place or to this rank
  MessageMemory memory;
  std::byte* at(std::size_t k) const { return memory ? memory.get() + offset[k] : nullptr; }
};

PackedMessages packed_messages(const std::vector<PeerPlan>& peers,
                               const std::vector<std::shared_ptr<const MessagePlace>>& places, Index elem_bytes,
                               Rank me, Transport& transport) {
  PackedMessages area{std::vector<Index>(peers.size(), -1), nullptr};
  Index total = 0;
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer == me || places[k]) continue;
    area.offset[k] = total;
    total += peers[k].elements * elem_bytes;
  }
  if (!transport.phantom()) area.memory = transport.message_memory(static_cast<std::size_t>(total));
  return area;
}

std::vector<std::shared_ptr<const MessagePlace>> places_of(Transport& transport, const std::vector<PeerPlan>& peers,
                                                           Index elem_bytes) {
  std::vector<std::shared_ptr<const MessagePlace>> places(peers.size());
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer != transport.rank() && travels_in_place(peers[k], elem_bytes)) {
      places[k] = transport.describe_message(peers[k].runs, peers[k].elements, elem_bytes);
    }
  }
  return places;
}

// Plan entries for other ranks, those after `me` first, then those before: the ranks do not all
// start with rank 0.
std::vector<std::size_t> peers_after(const std::vector<PeerPlan>& peers, Rank me) {
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

bool travels_in_place(const PeerPlan& message, Index elem_bytes) {
  const Index bytes = message.elements * elem_bytes;
  return message.run_count > 0 && bytes >= kMinInPlacePieceBytes * message.run_count &&
         bytes >= kMinInPlaceRecordBytes * message.record_count;
}

MessagePlaces MessagePlaces::for_plan(Transport& transport, const RankPlan& plan, Index elem_bytes) {
  return {places_of(transport, plan.sends, elem_bytes), places_of(transport, plan.receives, elem_bytes)};
}

const MessagePlaces& MessagePlaces::kept(std::shared_ptr<const MessagePlaces>& kept, Transport& transport,
                                         const RankPlan& plan, Index elem_bytes) {
  if (!kept) kept = std::make_shared<const MessagePlaces>(for_plan(transport, plan, elem_bytes));
  return *kept;
}

void exchange_direct(Transport& transport, const RankPlan& plan, const MessagePlaces& places, Index elem_bytes,
                     std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                     const WorkAccounting& accounting, RedistributeReport& report) {
  const Rank me = transport.rank();
  const bool real = !transport.phantom();
  const double start = transport.now();
  double unpacking = 0;

  PackedMessages incoming = packed_messages(plan.receives, places.receives, elem_bytes, me, transport);
  std::vector<Request> receives;
  std::vector<std::size_t> receive_plan;  // receives[i] fills plan.receives[receive_plan[i]]
  for (std::size_t k = 0; k < plan.receives.size(); ++k) {
    const PeerPlan& from = plan.receives[k];
    if (from.peer == me) continue;
    receives.push_back(places.receives[k]
                           ? transport.irecv_in_place(from.peer, dest_local.data(), *places.receives[k], kDataTag)
                           : transport.irecv(from.peer, incoming.at(k), from.elements * elem_bytes, kDataTag));
    receive_plan.push_back(k);
  }

  // Messages in place go first; then every packed message is packed in one sweep of source storage
  // (each cache line read once for all peers) and sent.
  PackedMessages outgoing = packed_messages(plan.sends, places.sends, elem_bytes, me, transport);
  std::vector<std::size_t> in_place, packed;
  for (const std::size_t k : peers_after(plan.sends, me)) (places.sends[k] ? in_place : packed).push_back(k);
  std::vector<Request> sends;
  const auto send = [&](std::size_t k) {
    const PeerPlan& to = plan.sends[k];
    sends.push_back(places.sends[k] ? transport.isend_in_place(to.peer, source_local.data(), *places.sends[k], kDataTag)
                                    : transport.isend(to.peer, outgoing.at(k), to.elements * elem_bytes, kDataTag));
    ++report.messages_sent;
    report.bytes_sent += to.elements * elem_bytes;
  };
  for (const std::size_t k : in_place) send(k);
  const double pack_start = transport.now();
  std::vector<const PeerPlan*> to_pack;
  std::vector<std::byte*> buffers;
  Work pack_work;
  for (const std::size_t k : packed) {
    to_pack.push_back(&plan.sends[k]);
    buffers.push_back(outgoing.at(k));
    pack_work += accounting.pack(plan.sends[k], elem_bytes);
  }
  if (real) pack_messages(to_pack, source_local, elem_bytes, buffers);
  transport.charge(pack_work);
  const double packing = transport.now() - pack_start;
  for (const std::size_t k : packed) send(k);

  const double local_start = transport.now();
  if (const LocalPart local = local_part(plan, me); !local.empty()) {
    check_local_part(*local.send, *local.receive);
    if (real) copy_local(*local.send, *local.receive, source_local, dest_local, elem_bytes);
    transport.charge(local_copy_work(*local.send, *local.receive, elem_bytes));
  }
  unpacking += transport.now() - local_start;

  std::vector<const PeerPlan*> arrived;
  std::vector<const std::byte*> data;
  for (std::size_t left = receives.size(); left > 0;) {
    const std::vector<Completion> done = transport.wait_some(receives);
    left -= done.size();
    arrived.clear();
    data.clear();
    Work unpack_work;
    for (const Completion& c : done) {
      const std::size_t k = receive_plan[c.index];
      if (places.receives[k]) continue;  // already in place
      arrived.push_back(&plan.receives[k]);
      data.push_back(incoming.at(k));
      unpack_work += accounting.unpack(plan.receives[k], elem_bytes);
    }
    if (arrived.empty()) continue;
    const double before = transport.now();
    if (real) unpack_messages(arrived, data, elem_bytes, dest_local);
    transport.charge_unpack(unpack_work, unpack_loop(arrived.size()));
    unpacking += transport.now() - before;
  }
  transport.wait_all(sends);
  report.phases.pack = packing;
  report.phases.unpack = unpacking;
  report.phases.comm = transport.now() - start - packing - unpacking;
}

}  // namespace redist
