#include "redist/mpi/redistribute.hpp"

#include "redist/indexing/run_memory.hpp"
#include "redist/mpi/message_memory_cache.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/mpi/shared_window_publication.hpp"
#include "redist/redistribute/redistribution_plan.hpp"

namespace redist::mpi {

RedistributeReport redistribute(MPI_Comm comm, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const Options& options) {
  const Plan::Buffers buffers{source_local, dest_local};
  Plan plan(comm, source, dest, options, &buffers);
  // The buffers were agreed with the call, exactly unless auto was still to choose the relabelling.
  const bool agreed = resolve_defaults(options).relabel != kAutoName;
  RedistributeReport report = agreed ? plan.execute_agreed(source_local, dest_local) : plan.execute(source_local, dest_local);
  // Timed as the algorithms' redistribute() times a call: from its plan to the end of its move, the
  // waits between included (an unagreed execute's agreement holds a rank until the slowest has
  // planned; measured from the move alone, that wait would count nowhere).
  const RedistributionPlan& planned = plan.planned();
  report.phases.index = planned.seconds;
  report.phases.total = planned.relabel_seconds + (MPI_Wtime() - planned.started);
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
