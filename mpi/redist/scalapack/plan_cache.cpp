#include "redist/scalapack/plan_cache.hpp"

#include "redist/mpi/kept_transport.hpp"
#include "redist/scalapack/scalapack.hpp"

namespace redist::scalapack {
namespace {

// A ScaLAPACK program alternates among a few redistributions of its matrices.
constexpr std::size_t kPlansPerCommunicator = 16;

}  // namespace

mpi::CommunicatorCache<KeptPlan, PlanKey>& kept_plans() {
  static mpi::CommunicatorCache<KeptPlan, PlanKey> kept(kPlansPerCommunicator);
  return kept;
}

void release_plans() {
  kept_plans().release_all();
  mpi::release_kept_transports();
}

}  // namespace redist::scalapack
