// redist's message layer kept with a communicator for the calls that hold none of their own: the
// one-call redistribute() and choose(), and the ScaLAPACK drop-in's kept plans. Each call on a
// communicator of its own would duplicate the caller's (MPI_Comm_dup, collective: its ranks agree
// on a context id), which took 5-7 us on 2 ranks of one node and 68-85 us on 4 ranks sharing 2
// cores, a sixth of a small matrix's whole call there (docs/MEASUREMENTS.md). Kept under
// communicator_cache.hpp's rules: made by all the communicator's ranks together on the first call,
// freed with the communicator, at MPI_Finalize, or by release_kept_transports().
#pragma once

#include <mpi.h>

#include <memory>

#include "redist/mpi/mpi_transport.hpp"

namespace redist::mpi {

/// The transport kept with `comm`: one rank of a duplicate of it. Collective over `comm` the first
/// time. The calls that share it run one at a time (as collective calls on one communicator must),
/// each leaving no message behind.
const std::shared_ptr<MpiTransport>& kept_transport(MPI_Comm comm);

/// Frees the kept transports (local: no communication; a Plan still holding one keeps it).
void release_kept_transports();

}  // namespace redist::mpi
