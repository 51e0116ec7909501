#include "redist/mpi/redistribute.hpp"

#include "redist/indexing/run_memory.hpp"
#include "redist/mpi/message_memory_cache.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/mpi/shared_window_publication.hpp"

namespace redist::mpi {

RedistributeReport redistribute(MPI_Comm comm, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const Options& options) {
  const Plan::Buffers buffers{source_local, dest_local};
  Plan plan(comm, source, dest, options, &buffers);
  // The buffers were agreed with the call; without a relabelling that check was already exact.
  const bool agreed = options.relabel == "none" && plan.options().relabel == "none";
  RedistributeReport report = agreed ? plan.execute_agreed(source_local, dest_local) : plan.execute(source_local, dest_local);
  report.phases.index = plan.plan_seconds();
  report.phases.total += report.phases.index;
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
