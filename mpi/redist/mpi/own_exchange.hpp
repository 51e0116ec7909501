// The exchange redist's MPI layer runs for redist's own work with the asynchronous exchange: the
// algorithms' shared-memory exchange (redistribute/shared_memory_exchange.hpp) through the shared
// window of the transport's communicator when use_shared_memory() says so, else the algorithms'
// exchange_direct (direct_exchange.hpp) as MPI messages. Only the choice is MPI's.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>

#include "redist/indexing/rank_plan.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/redistribute/direct_exchange.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::mpi {

/// Collective over the transport's communicator (its window_comm(), whose shared window it uses).
/// `places` is kept with the plan: described at the first exchange as messages.
RedistributeReport exchange_own(MpiTransport& transport, const RankPlan& plan,
                                std::shared_ptr<const MessagePlaces>& places, Index elem_bytes,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local);

}  // namespace redist::mpi
