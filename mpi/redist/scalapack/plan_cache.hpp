// The drop-in entries' plans, kept between calls: a ScaLAPACK program redistributes the same
// submatrices again and again, and with the plan kept a call costs little more than the move.
// Kept as redist::mpi::CommunicatorCache values of the communicators the calls meet on (one
// per set of processes: context_meeting.hpp), under its rules (communicator_cache.hpp): made by all
// the call's ranks together, freed at MPI_Finalize or by release_plans() (scalapack.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "redist/mpi/communicator_cache.hpp"
#include "redist/mpi/plan.hpp"

namespace redist::scalapack {

/// One call's plan on this rank: a redist::mpi::Plan holding the call's submatrix plan (made from
/// the descriptors: plan_of_messages), or the Plan `auto` chose on the machine model in its place.
struct KeptPlan {
  std::unique_ptr<mpi::Plan> plan;
  /// The communicator auto's Plan runs on (the context's ranks, A's processors first: a Plan's source
  /// processors are consecutive ranks), freed after it; null for the submatrix plan.
  MPI_Comm comm = MPI_COMM_NULL;
  std::string method;     ///< how `plan` moves the data (last_method())
  int uses = 0;           ///< calls that found (or made) this plan, this one included (at most 2)
  bool decided = false;   ///< whether auto's choice was considered yet

  KeptPlan() = default;
  KeptPlan(const KeptPlan&) = delete;
  KeptPlan& operator=(const KeptPlan&) = delete;
  ~KeptPlan() {
    plan.reset();
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

/// The key of a call's plan: everything its ranks gathered. Every rank passes the same one.
using PlanKey = std::vector<std::int64_t>;

/// The plans kept with each meeting communicator: the 16 most recently used.
mpi::CommunicatorCache<KeptPlan, PlanKey>& kept_plans();

}  // namespace redist::scalapack
