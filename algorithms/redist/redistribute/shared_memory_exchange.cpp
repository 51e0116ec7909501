#include "redist/redistribute/shared_memory_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist {
namespace {

// What a sender publishes per peer in its area: its message there, as a run list of its source
// storage (copied once: the receiver reads the elements straight out of that storage) or packed
// (then unpacked: two copies), or nothing (`at` -1).
struct PublishedMessage {
  Index at = -1;   // bytes from the area's start to the runs or the packed elements
  Index runs = 0;  // run records, when the message is copied once
  Index elements = 0;
  Index once = 0;  // 1: copied once, from the runs; 0: packed
};

// An area starts with where its rank's source lies in the shared storage (bytes from
// Transport::shared_source), then a PublishedMessage per rank.
Index published_header_bytes(Rank size) {
  return static_cast<Index>(sizeof(Index) + static_cast<std::size_t>(size) * sizeof(PublishedMessage));
}

// Run records a message's list takes in the area (counted where the runs are not materialised).
Index run_list_bytes(const PeerPlan& message) {
  const Index records = message.runs.empty() ? message.record_count : static_cast<Index>(message.runs.size());
  return records * static_cast<Index>(sizeof(Run));
}

// A rank's messages to other ranks, each marked for a copy once should the ranks agree on it, and
// the bytes of its area either way.
struct Outgoing {
  std::vector<const PeerPlan*> messages;
  std::vector<bool> once;
  Index data_bytes = 0;  // the messages' elements
  Index area_once = 0;   // an area with the messages marked once as run lists, the others packed
};

Outgoing outgoing_messages(const RankPlan& plan, Rank me, Rank size, Index elem_bytes, Index once_piece_bytes) {
  Outgoing out;
  out.area_once = published_header_bytes(size);
  for (const PeerPlan& to : plan.sends) {
    if (to.peer == me) continue;
    const Index bytes = to.elements * elem_bytes;
    out.messages.push_back(&to);
    out.once.push_back(copied_once(to, elem_bytes, once_piece_bytes));
    out.data_bytes += bytes;
    out.area_once += out.once.back() ? run_list_bytes(to) : bytes;
  }
  return out;
}

bool receives_from_others(const RankPlan& plan, Rank me) {
  return std::ranges::any_of(plan.receives, [me](const PeerPlan& from) { return from.peer != me; });
}

// This rank's half before the synchronisation: its area holds where its source lies in the shared
// storage, a PublishedMessage per rank, then the run lists of the messages copied once (first:
// Run records stay aligned), then the packed messages. The local part is copied here when its
// source side is the scattered one. Returns the packing's work.
Work publish_outgoing(Transport& transport, bool once_agreed, const Outgoing& out, const LocalPart& local, Index elem_bytes,
             std::span<const std::byte> source_local, std::span<std::byte> dest_local,
             const WorkAccounting& accounting) {
  const Rank me = transport.rank();
  const bool local_in_pack = !local.empty() && !local_part_in_unpack(*local.send, *local.receive, elem_bytes);
  Work work;
  std::vector<const PeerPlan*> packed;
  for (std::size_t k = 0; k < out.messages.size(); ++k) {
    if (once_agreed && out.once[k]) continue;
    packed.push_back(out.messages[k]);
    work += accounting.pack(*out.messages[k], elem_bytes);
  }
  if (local_in_pack) work += local_copy_work(*local.send, *local.receive, elem_bytes);
  std::byte* area = transport.publication_area();
  if (area == nullptr) return work;  // phantom: the work only

  std::vector<PublishedMessage> table(static_cast<std::size_t>(transport.size()));
  std::vector<std::byte*> buffers;
  Index bytes = published_header_bytes(transport.size());
  for (std::size_t k = 0; k < out.messages.size(); ++k) {
    const PeerPlan& to = *out.messages[k];
    if (!once_agreed || !out.once[k]) continue;
    table[static_cast<std::size_t>(to.peer)] = {bytes, static_cast<Index>(to.runs.size()), to.elements, 1};
    std::memcpy(area + bytes, to.runs.data(), to.runs.size() * sizeof(Run));
    bytes += static_cast<Index>(to.runs.size() * sizeof(Run));
  }
  for (const PeerPlan* to : packed) {
    table[static_cast<std::size_t>(to->peer)] = {bytes, 0, to->elements, 0};
    buffers.push_back(area + bytes);
    bytes += to->elements * elem_bytes;
  }
  const Index source_at = once_agreed && !out.messages.empty() ? source_local.data() - transport.shared_source(me) : 0;
  std::memcpy(area, &source_at, sizeof(Index));
  std::memcpy(area + sizeof(Index), table.data(), table.size() * sizeof(PublishedMessage));
  if (local_in_pack) {
    pack_messages(packed, source_local, elem_bytes, buffers, *local.send, *local.receive, dest_local);
  } else {
    pack_messages(packed, source_local, elem_bytes, buffers);
  }
  return work;
}

// What take_incoming did: its work, and the loop that did it (a sweep where it unpacked or copied
// two or more messages at once).
struct Unpacking {
  Work work;
  CopyLoop loop = CopyLoop::Unpack;
};

// This rank's half after the synchronisation: every message to it unpacked out of its sender's
// area or copied straight out of its sender's source, and the local part if its destination side
// is the scattered one, in one sweep of destination storage. Adds the bytes copied once to
// `copied_once_bytes`.
Unpacking take_incoming(Transport& transport, bool once_agreed, const RankPlan& plan, const LocalPart& local, Index elem_bytes,
          std::span<const std::byte> source_local, std::span<std::byte> dest_local, const WorkAccounting& accounting,
          Index& copied_once_bytes) {
  const Rank me = transport.rank();
  const bool real = !transport.phantom();
  const bool local_in_unpack = !local.empty() && local_part_in_unpack(*local.send, *local.receive, elem_bytes);
  Work work;
  std::size_t swept = 0;
  std::vector<const PeerPlan*> unpacked;
  std::vector<const std::byte*> data;
  std::vector<DirectCopy> copies;
  for (const PeerPlan& from : plan.receives) {
    if (from.peer == me) continue;
    work += accounting.unpack(from, elem_bytes);
    ++swept;
    if (!real) continue;
    const std::byte* area = transport.published_area(from.peer);
    PublishedMessage message;
    std::memcpy(&message, area + sizeof(Index) + static_cast<std::size_t>(me) * sizeof(PublishedMessage),
                sizeof(PublishedMessage));
    if (message.at < 0 || message.elements != from.elements) {
      throw std::logic_error("rank " + std::to_string(from.peer) + " published " + std::to_string(message.elements) +
                             " elements for rank " + std::to_string(me) + ", which expects " +
                             std::to_string(from.elements));
    }
    if (message.once == 0) {
      unpacked.push_back(&from);
      data.push_back(area + message.at);
      continue;
    }
    if (!once_agreed) throw std::logic_error("rank " + std::to_string(from.peer) + " published a run list unasked");
    Index source_at = 0;
    std::memcpy(&source_at, area, sizeof(Index));
    const auto* runs = reinterpret_cast<const Run*>(area + message.at);
    copies.push_back({&from, {runs, static_cast<std::size_t>(message.runs)}, transport.shared_source(from.peer) + source_at});
    copied_once_bytes += from.elements * elem_bytes;
  }
  if (local_in_unpack) {
    work += local_copy_work(*local.send, *local.receive, elem_bytes);
    ++swept;
    if (real) copies.push_back({local.receive, local.send->runs, source_local.data()});
  }
  if (real) unpack_and_copy(unpacked, data, copies, elem_bytes, dest_local);
  return {work, unpack_loop(swept)};
}

}  // namespace

bool copied_once(const PeerPlan& message, Index elem_bytes, Index once_piece_bytes) {
  const Index pieces = message.runs.empty() ? message.run_count : piece_count(message.runs);
  return pieces > 0 && message.elements * elem_bytes >= once_piece_bytes * pieces;
}

Transport::PublicationAsk publication_ask(const RankPlan& plan, Rank me, std::span<const std::byte> source_local) {
  const bool sends = std::ranges::any_of(plan.sends, [me](const PeerPlan& to) { return to.peer != me; });
  return {.sends = sends, .receives = receives_from_others(plan, me), .source = source_local};
}

void exchange_shared_memory(Transport& transport, const RankPlan& plan, Index elem_bytes,
                            std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                            const WorkAccounting& accounting, RedistributeReport& report, Index once_piece_bytes) {
  const Rank me = transport.rank();
  const double start = transport.now();
  const Outgoing out = outgoing_messages(plan, me, transport.size(), elem_bytes, once_piece_bytes);
  report.messages_sent += static_cast<Index>(out.messages.size());
  report.bytes_sent += out.data_bytes;
  const LocalPart local = local_part(plan, me);
  if (!local.empty()) check_local_part(*local.send, *local.receive);

  // The agreement's collective is also what keeps a rank from overwriting its area while another
  // still reads the last call's messages from it.
  const bool once_agreed =
      transport.reserve_publication({.packed_bytes = published_header_bytes(transport.size()) + out.data_bytes,
                                     .in_place_bytes = out.area_once,
                                     .sends = !out.messages.empty(),
                                     .receives = receives_from_others(plan, me),
                                     .source = source_local});
  const double pack_start = transport.now();
  transport.charge(publish_outgoing(transport, once_agreed, out, local, elem_bytes, source_local, dest_local, accounting));
  report.phases.pack = transport.now() - pack_start;
  // Every message packed or its runs published; every rank's source as its caller left it.
  transport.synchronise_publication();
  const double unpack_start = transport.now();
  const Unpacking unpacking = take_incoming(transport, once_agreed, plan, local, elem_bytes, source_local, dest_local,
                                           accounting, report.bytes_copied_once);
  transport.charge_unpack(unpacking.work, unpacking.loop);
  report.phases.unpack = transport.now() - unpack_start;
  transport.finish_reading(once_agreed);
  report.phases.comm = transport.now() - start - report.phases.pack - report.phases.unpack;
}

}  // namespace redist
