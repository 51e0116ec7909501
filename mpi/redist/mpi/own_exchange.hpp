// The exchange redist's MPI layer runs for redist's own work with the asynchronous exchange: through
// the communicator's shared window when its ranks share a node (shared_window_exchange.hpp), else
// the algorithms' exchange_direct (direct_exchange.hpp) over MpiTransport.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>

#include "redist/indexing/plan.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/redistribute/direct_exchange.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::mpi {

/// Collective over `window_comm` (the caller's communicator; `transport` talks on a duplicate).
/// `places` is kept with the plan: described at the first exchange as messages.
RedistributeReport exchange_own(MPI_Comm window_comm, MpiTransport& transport, const RankPlan& plan,
                                std::shared_ptr<const MessagePlaces>& places, Index elem_bytes,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local);

}  // namespace redist::mpi
