// Predicted choice: for a layout pair, every candidate way of redistributing —
// indexing method × schedule × relabelling — priced on a machine model, and the fastest chosen.
// Prediction counts work and sums message costs (predicted_comm.hpp); it simulates nothing, so it
// costs a small fraction of the redistribution it plans. Two halves, so that MPI ranks can each
// price their own local work and share it: predict_local() is one rank's, predict() puts every
// rank's together with the communication, which every rank derives alike from the layouts.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "redist/indexing/rank_map.hpp"
#include "redist/layout/layout.hpp"
#include "redist/transport/machine_model.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/schedule/schedule.hpp"
#include "redist/transport/phases.hpp"

namespace redist {

/// One way of redistributing a layout pair.
struct Candidate {
  std::string indexing;
  std::string schedule;
  RelabelMethod relabel = RelabelMethod::None;
  /// "prylli/async/none".
  std::string label() const;
  friend bool operator==(const Candidate&, const Candidate&) = default;
};

/// Which choices are fixed and which are free ("auto").
struct CandidateRequest {
  std::string indexing = kAutoName;  ///< a method name or auto
  std::string schedule = kAutoName;  ///< a schedule name or auto
  std::string relabel = "none";      ///< none, exact, greedy or auto
};

/// Every combination `request` leaves open that can run the pair: indexing methods that take it,
/// schedules that apply (walker-otto only on its layouts), relabellings only where destination
/// processors may move (`ranks` shared and not relabelled already). Throws std::invalid_argument
/// for an unknown name or a request that leaves no candidate.
std::vector<Candidate> candidates(const Layout& source, const Layout& dest, const RankMap& ranks,
                                  const CandidateRequest& request);

/// Where the candidate puts the destination processors: `ranks`, or relabelled.
RankMap candidate_ranks(const Layout& source, const Layout& dest, const RankMap& ranks, RelabelMethod relabel);

/// A call's candidates with what they share, each computed once and handed on: one Placement per
/// relabelling they use (an exact one solves an assignment problem) and one schedule per
/// (relabelling, schedule), on that placement. The prediction prices them, and the chosen one's
/// placement and schedule are the plan's (resolve_choices, plan_redistribution's PlanInputs).
struct CandidateSet {
  RankMap ranks;                                  ///< the ranks asked for, before any relabelling
  std::vector<Candidate> list;                    ///< as candidates() lists them
  std::map<RelabelMethod, Placement> placements;  ///< every relabelling of the list
  /// The placement of candidates relabelled by `relabel`.
  const Placement& placement(RelabelMethod relabel) const { return placements.at(relabel); }
  /// The candidate's schedule on its placement (null for async), as layout_schedule builds it under
  /// StepProcedure::Redist: the one built when candidate_set tried the schedule, else built now, once.
  std::shared_ptr<const Schedule> schedule(const Layout& source, const Layout& dest, const Candidate& candidate) const;
  /// The schedules built so far, by relabelling and schedule name.
  mutable std::map<std::pair<RelabelMethod, std::string>, std::shared_ptr<const Schedule>> schedules;
};

/// candidates(), with each placement and every schedule tried kept: a relabelling computed once per
/// relabel method, a schedule tried once per (placement, schedule). `clock`, if given, times each
/// relabelling (Placement::seconds; resolve_choices gives the transport's).
CandidateSet candidate_set(const Layout& source, const Layout& dest, const RankMap& ranks,
                           const CandidateRequest& request, const std::function<double()>& clock = {});

/// The set of the given candidates: each relabelling they use computed once here, untimed, and
/// each schedule built when first asked for.
CandidateSet candidate_set(const Layout& source, const Layout& dest, const RankMap& ranks,
                           std::vector<Candidate> candidates);

/// One rank's local work, in seconds.
struct LocalSeconds {
  double index = 0;   ///< counting its index sets by the candidate's method
  double pack = 0;    ///< packing its messages (its local part included, unless copied in the unpacking)
  double unpack = 0;  ///< unpacking what it receives
};

/// Rank `me`'s local work for each candidate, priced at `model`'s prices (redist's own work
/// accounting; index sets counted without listing them, as a phantom run does). Where ranks share
/// memory, an async candidate copies the rank's local part once, as redist's MPI layer does, with
/// the packing or the unpacking (local_part_in_unpack).
std::vector<LocalSeconds> predict_local(const Layout& source, const Layout& dest, Index elem_bytes, const RankMap& ranks,
                                        const std::vector<Candidate>& candidates, const MachineModel& model, Rank me);
/// The same for the set's candidates, on its placements.
std::vector<LocalSeconds> predict_local(const Layout& source, const Layout& dest, Index elem_bytes,
                                        const CandidateSet& candidates, const MachineModel& model, Rank me);

struct Prediction {
  Candidate candidate;
  /// Each phase the maximum over hosts (ranks sharing a host add up their local work); comm the
  /// exchange; total index + pack + barrier + comm + unpack.
  Phases phases;
};

/// Every candidate's predicted phases. `local[rank][k]` is predict_local's result of `rank` for
/// candidates[k], for every rank of the run (ranks.ranks_needed of the layouts).
std::vector<Prediction> predict(const Layout& source, const Layout& dest, Index elem_bytes, const RankMap& ranks,
                                const std::vector<Candidate>& candidates, const MachineModel& model,
                                const std::vector<std::vector<LocalSeconds>>& local);
/// The same for the set's candidates, on its placements and schedules.
std::vector<Prediction> predict(const Layout& source, const Layout& dest, Index elem_bytes, const CandidateSet& candidates,
                                const MachineModel& model, const std::vector<std::vector<LocalSeconds>>& local);

/// predict_local for every rank, then predict: the whole prediction in one process.
std::vector<Prediction> predict_all_ranks(const Layout& source, const Layout& dest, Index elem_bytes,
                                          const RankMap& ranks, const std::vector<Candidate>& candidates,
                                          const MachineModel& model);

/// Index of the prediction with the smallest total (the first of equals).
std::size_t fastest(const std::vector<Prediction>& predictions);

/// Index of the prediction whose execution of a kept plan is fastest: the smallest total without
/// the index phase, which a plan pays once (the first of equals).
std::size_t fastest_per_execution(const std::vector<Prediction>& predictions);

}  // namespace redist
