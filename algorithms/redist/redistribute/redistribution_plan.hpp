// redistribute() in two halves: a plan made once (checks, index sets, schedule) and executed any
// number of times (the data moved), as FFTW's plans are. The one plan holder: the simulator runs
// it (`redist simulate --repeat K`), redist::mpi::Plan holds and runs it on MPI, and the ScaLAPACK
// drop-in keeps its submatrix plans as such Plans (plan_of_messages: made from descriptors).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>

#include "redist/indexing/rank_plan.hpp"
#include "redist/redistribute/direct_exchange.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

/// One rank's plan of a redistribution.
struct RedistributionPlan {
  Index source_elements = 0;  ///< of this rank's source storage: what its source buffer holds
  Index dest_elements = 0;    ///< the same for the destination
  RedistributeOptions options;                      ///< defaults resolved
  RankPlan plan;                                    ///< this rank's messages
  std::shared_ptr<const Schedule> schedule;         ///< the steps; null for the asynchronous exchange
  std::shared_ptr<const WorkAccounting> accounting; ///< whose work is charged
  double seconds = 0;                               ///< the index phase, on the transport's clock
  double started = 0;                               ///< when the plan's own part of the index phase began
  double relabel_seconds = 0;  ///< the index phase's other part: placing the destination processors
  /// The places of the messages that travel in place (exchange_direct), described at the first
  /// exchange that needs them and kept for the next.
  mutable std::shared_ptr<const MessagePlaces> places;
};

/// Whether `plan` runs redist's own asynchronous exchange: redist's work (not a paper's program,
/// which packs every message) and no schedule. It is exchange_shared_memory where the message
/// layer offers shared publication for it (execute(): the simulator where the ranks share memory,
/// redist's MPI layer where they share a node, from a communicator's second call), exchange_direct
/// elsewhere.
bool runs_own_exchange(const RedistributionPlan& plan);

/// What the caller computed already, for plan_redistribution to take rather than compute again:
/// resolve_choices hands on the chosen candidate's placement and schedule, found while choosing.
struct PlanInputs {
  /// Where options.relabel puts the destination processors (ignored for relabel none): taken as
  /// the plan's ranks, its work charged and its seconds counted in the index phase, as when the
  /// plan relabels itself.
  std::optional<Placement> placement;
  /// options.schedule's schedule on those ranks under options.step_procedure (null for async).
  std::optional<std::shared_ptr<const Schedule>> schedule;
};

/// Checks the call (std::invalid_argument as redistribute()) and computes this rank's plan: the
/// relabelling and the schedule from `inputs` where given, else here.
RedistributionPlan plan_redistribution(Transport& transport, const Layout& source, const Layout& dest,
                                       const RedistributeOptions& options, const PlanInputs& inputs = {});

/// A plan whose messages were computed some other way — the ScaLAPACK drop-in's, from descriptors
/// (a submatrix at any offset in padded storage has no Layout) — run as redist's own: its work, the
/// asynchronous exchange (runs_own_exchange). `made_by` names the indexing in its options; its
/// buffers span the storage its runs reach.
RedistributionPlan plan_of_messages(RankPlan plan, Index elem_bytes, std::string made_by);

/// Moves the data as `plan` says; buffers as for redistribute() (checked). The one place that
/// chooses the exchange, on every message layer: shared publication where the layer offers it
/// (Transport::publication_offer, message_regime), else redist's own exchange_direct or the
/// plan's steps. The report's index phase is 0 and its total the execution alone.
RedistributeReport execute(Transport& transport, const RedistributionPlan& plan, std::span<const std::byte> source_local,
                           std::span<std::byte> dest_local);

}  // namespace redist
