#include "redist/mpi/redistribute.hpp"

#include "redist/indexing/run_memory.hpp"
#include "redist/mpi/kept_transport.hpp"
#include "redist/mpi/message_memory_cache.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/mpi/shared_window_publication.hpp"
#include "redist/redistribute/redistribution_plan.hpp"

namespace redist::mpi {

RedistributeReport redistribute(MPI_Comm comm, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const Options& options) {
  const double entered = MPI_Wtime();
  const Plan::Buffers buffers{source_local, dest_local};
  Plan plan(kept_transport(comm), source, dest, options, &buffers);
  // The buffers were agreed with the call, exactly unless auto was still to choose the relabelling.
  const bool agreed = resolve_defaults(options).relabel != kAutoName;
  RedistributeReport report = agreed ? plan.execute_agreed(source_local, dest_local) : plan.execute(source_local, dest_local);
  // Timed from the call's entry to the end of its move, the waits between included: the agreement
  // on the input, which holds a rank until every rank has checked its own (where ranks outnumber
  // cores, until its core-mates let it have the core), counts in the index phase, and an unagreed
  // execute's agreement, which holds a rank until the slowest has planned, in the move's.
  const RedistributionPlan& planned = plan.planned();
  report.phases.index = (planned.started - entered) + (planned.seconds - planned.relabel_seconds);
  report.phases.total = MPI_Wtime() - entered;
  return report;
}

void release_buffers() {
  release_cached_message_memory();
  release_run_memory();
}

void release_buffers(MPI_Comm comm) {
  release_buffers();
  release_shared_memory(comm);
}

}  // namespace redist::mpi
