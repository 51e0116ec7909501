#include "redist/scalapack/plan_cache.hpp"

#include "redist/scalapack/scalapack.hpp"

namespace redist::scalapack {
namespace {

// A ScaLAPACK program alternates among a few redistributions of its matrices.
constexpr std::size_t kPlansPerCommunicator = 16;

struct ContextTransport {
  std::shared_ptr<mpi::MpiTransport> transport;
};

mpi::CommunicatorCache<ContextTransport>& context_transports() {
  static mpi::CommunicatorCache<ContextTransport> kept;
  return kept;
}

}  // namespace

mpi::CommunicatorCache<KeptPlan, PlanKey>& kept_plans() {
  static mpi::CommunicatorCache<KeptPlan, PlanKey> kept(kPlansPerCommunicator);
  return kept;
}

const std::shared_ptr<mpi::MpiTransport>& context_transport(MPI_Comm comm) {
  return context_transports()
      .get(comm, [comm] { return std::make_unique<ContextTransport>(std::make_shared<mpi::MpiTransport>(comm)); })
      .transport;
}

void release_plans() {
  kept_plans().release_all();
  context_transports().release_all();
}

}  // namespace redist::scalapack
