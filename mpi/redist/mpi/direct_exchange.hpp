// redist's own asynchronous exchange on MPI, at one copy per byte where MPI allows it (the
// algorithms' exchange_plan packs and unpacks everything, as the papers' programs did and the
// replays model):
// - every receive is posted first, so each message has its place before any is sent;
// - a message of long pieces travels in place, described by a derived datatype (run_datatype.hpp);
//   one of many short pieces is packed into a buffer, sent as soon as it is packed, and unpacked
//   as it arrives;
// - the part that stays on the rank is copied once, source to destination (local_copy.hpp), while
//   the messages travel.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "redist/indexing/plan.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/mpi/run_datatype.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::mpi {

/// The derived datatype of each message of a plan that travels in place (sends_in_place), an
/// invalid one for the others: built once per plan, used by every exchange of it.
struct MessageDatatypes {
  std::vector<RunDatatype> sends, receives;  ///< parallel to RankPlan::sends and ::receives
  static MessageDatatypes for_plan(const RankPlan& plan, Index elem_bytes, Rank me);
};

/// Moves `plan` (this rank's part of the redistribution) and fills the pack, comm and unpack phases
/// and the message counts of `report`: pack is the time spent packing, unpack the time spent
/// unpacking and copying the local part, comm the rest of the exchange.
void exchange_direct(MpiTransport& transport, const RankPlan& plan, const MessageDatatypes& types, Index elem_bytes,
                     std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                     RedistributeReport& report);

}  // namespace redist::mpi
