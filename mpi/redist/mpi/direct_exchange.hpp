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

#include "redist/indexing/plan.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::mpi {

/// Moves `plan` (this rank's part of the redistribution) and fills the pack, comm and unpack phases
/// and the message counts of `report`: pack is the time spent packing, unpack the time spent
/// unpacking and copying the local part, comm the rest of the exchange.
void exchange_direct(MpiTransport& transport, const RankPlan& plan, Index elem_bytes,
                     std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                     RedistributeReport& report);

}  // namespace redist::mpi
