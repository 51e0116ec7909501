// The exchange where the ranks share one node's memory (Transport::shares_memory): every rank
// publishes the messages it packed (a synchronisation), unpacks its own straight from the senders'
// buffers, and all meet again before any buffer may be reused. Nothing travels: the comm phase is
// the two synchronisations. It is how redist's MPI layer runs an asynchronous exchange among the
// ranks of one node (mpi/redist/mpi/shared_window_exchange.hpp, through an MPI-3 window from the
// second call on a communicator), so that the simulator prices what that code does.
#pragma once

#include "redist/indexing/plan.hpp"
#include "redist/redistribute/exchange_buffers.hpp"

namespace redist {

ExchangeTimes exchange_shared_memory(Transport& transport, const RankPlan& plan, ExchangeBuffers& buffers,
                                     const UnpackMessages& unpack_messages);

}  // namespace redist
