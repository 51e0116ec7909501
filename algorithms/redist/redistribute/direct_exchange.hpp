// redist's own asynchronous exchange, at one copy per byte where the message layer allows it: what
// redist's work (`work: redist`, the default) runs on ranks that exchange messages, on MPI and in
// the simulator alike (exchange_async packs and unpacks every message, as the papers' programs did
// and their replays model):
// - every receive is posted first, so each message has its place before any is sent;
// - a message of long pieces travels in place (Transport::describe_message: MPI's derived
//   datatypes), the others are packed in one sweep of source storage, sent, and unpacked as they
//   arrive;
// - the part that stays on the rank is copied once, source to destination, while the messages travel.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "redist/indexing/rank_plan.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/redistribute/work_accounting.hpp"

namespace redist {

/// Whether a message should travel in place where the transport can move it so, or be packed: a
/// message-passing library's datatype engine pays per piece, and more per run record, than redist's
/// packing loops, so messages whose pieces average under 64 bytes or whose run records average
/// under 256 bytes are packed (measured on Open MPI, docs/MEASUREMENTS.md). Reads the counts only
/// (PeerPlan::run_count, ::record_count): the same answer whether or not the runs are materialised.
bool travels_in_place(const PeerPlan& message, Index elem_bytes);

/// The places of a rank plan's messages that travel in place, parallel to RankPlan::sends and
/// ::receives (null: packed), as `transport` describes them: made once per plan, kept with it.
struct MessagePlaces {
  std::vector<std::shared_ptr<const MessagePlace>> sends, receives;
  static MessagePlaces for_plan(Transport& transport, const RankPlan& plan, Index elem_bytes);
  /// Those kept in `kept`, described there first if they are not yet.
  static const MessagePlaces& kept(std::shared_ptr<const MessagePlaces>& kept, Transport& transport,
                                   const RankPlan& plan, Index elem_bytes);
};

/// Moves `plan` (this rank's part of the redistribution) and fills the pack, comm and unpack phases
/// and the message counts of `report`: pack is the packing, unpack the unpacking and the local
/// part's copy, comm the rest. Charges the packing and unpacking as `accounting` counts them.
void exchange_direct(Transport& transport, const RankPlan& plan, const MessagePlaces& places, Index elem_bytes,
                     std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                     const WorkAccounting& accounting, RedistributeReport& report);

}  // namespace redist
