// redist's own exchange of a plan on MPI, as Plan::execute and the ScaLAPACK entries run it:
// through the communicator's shared-memory window where its ranks share a node and calls repeat
// (shared_memory_exchange.hpp), else as messages (direct_exchange.hpp).
#pragma once

#include <mpi.h>

#include <optional>
#include <span>

#include "redist/mpi/direct_exchange.hpp"
#include "redist/mpi/mpi_transport.hpp"

namespace redist::mpi {

/// Collective over `window_comm` (whose ranks are the transport's): moves `plan` and fills the
/// report's phases, message counts and bytes kept. `datatypes` is made at the first exchange as
/// messages and kept by the caller for the next ones.
RedistributeReport exchange_own(MPI_Comm window_comm, MpiTransport& transport, const RankPlan& plan,
                                std::optional<MessageDatatypes>& datatypes, Index elem_bytes,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local);

}  // namespace redist::mpi
