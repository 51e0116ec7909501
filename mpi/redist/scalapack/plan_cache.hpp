// The drop-in entries' plans, kept between calls: a ScaLAPACK program redistributes the same
// submatrices again and again, and with the plan kept a call costs little more than the move.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redist/indexing/plan.hpp"
#include "redist/redistribute/direct_exchange.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/mpi/plan.hpp"

namespace redist::scalapack {

/// What `auto` chose for a copy of whole matrices on the machine model (REDIST_MODEL), and the
/// redist::mpi::Plan running it, on a communicator of the context's ranks with A's processors first
/// (the Plan's source processors are consecutive ranks); no Plan where the choice is the default's
/// own exchange (async).
struct PredictedPlan {
  MPI_Comm comm = MPI_COMM_NULL;
  std::unique_ptr<mpi::Plan> plan;
  std::string chosen;  ///< "indexing <name>, schedule <name>"
  PredictedPlan() = default;
  PredictedPlan(const PredictedPlan&) = delete;
  PredictedPlan& operator=(const PredictedPlan&) = delete;
  ~PredictedPlan() {
    plan.reset();
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

/// One call's plan on this rank, and what its exchange keeps between calls.
struct KeptPlan {
  RankPlan plan;
  Index source_extent = 0;  ///< elements of A's storage the sends span (one past the highest offset)
  Index dest_extent = 0;    ///< the same for B's storage and the receives
  std::shared_ptr<const MessagePlaces> places;  ///< described at the first exchange as messages
  int uses = 0;                             ///< calls that found (or made) this plan, this one included
  bool decided = false;                     ///< whether `predicted` was considered yet
  std::shared_ptr<PredictedPlan> predicted;  ///< auto's choice, once made; its Plan runs instead of `plan`
};

/// redist's transport on `comm` (BLACS' communicator of a context): a duplicate, for BLACS sends
/// its own messages on `comm`, kept with `comm` (freed with it, at MPI_Finalize or by
/// release_plans(), scalapack.hpp). Collective over `comm` the first time.
mpi::MpiTransport& context_transport(MPI_Comm comm);

/// The plan kept on `transport` for `key`, made by `make` when there is none. Every rank of the
/// transport must pass the same key: then all find or miss a plan together (at most 16 are kept
/// per communicator, the least recently used dropped first).
KeptPlan& kept_plan(const mpi::MpiTransport& transport, const std::vector<std::int64_t>& key,
                    const std::function<RankPlan()>& make);

}  // namespace redist::scalapack
