#include "redist/predict/prediction.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/indexing/touched_bytes.hpp"
#include "redist/predict/predicted_comm.hpp"
#include "redist/redistribute/direct_exchange.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/transport/message_regime.hpp"

namespace redist {
namespace {

bool is_auto(const std::string& name) { return name == kAutoName; }

std::vector<std::string> indexing_candidates(const Layout& source, const Layout& dest, const std::string& asked) {
  if (!is_auto(asked)) return {std::string(indexing_method(asked).name)};
  std::vector<std::string> names;
  for (const IndexingMethod& method : indexing_methods()) {
    if (method_takes(method, source, dest)) names.emplace_back(method.name);
  }
  return names;
}

// The schedules `asked` names that apply on `placed`: those that can be built for the pair
// (walker-otto refuses all but its layouts), each built once and kept in `built` under `relabel`;
// a schedule named outright is taken as it is (built when first priced).
std::vector<std::string> schedule_candidates(const Layout& source, const Layout& dest, const RankMap& placed,
                                             const std::string& asked, RelabelMethod relabel,
                                             std::map<std::pair<RelabelMethod, std::string>, std::shared_ptr<const Schedule>>& built) {
  if (!is_auto(asked)) return {std::string(name_of(schedule_from_name(asked)))};
  std::vector<std::string> names;
  for (const ScheduleChoice choice : schedule_names().values()) {
    std::string name(name_of(choice));
    try {
      built[{relabel, name}] = layout_schedule(choice, source, dest, placed);
    } catch (const std::invalid_argument&) {
      continue;
    }
    names.push_back(std::move(name));
  }
  return names;
}

std::vector<RelabelMethod> relabel_candidates(const RankMap& ranks, const std::string& asked) {
  const bool movable = ranks == RankMap::shared();
  if (!is_auto(asked)) {
    const RelabelMethod method = relabel_method_names().from_name(asked);
    if (method != RelabelMethod::None && !movable) {
      throw std::invalid_argument("relabelling needs source and destination processors on the same ranks");
    }
    return {method};
  }
  if (!movable) return {RelabelMethod::None};
  return relabel_method_names().values();
}

// The message from source processor p to destination processor q, its bytes from the exact volumes.
RankMessage message(const LengthMatrix& volumes, const RankMap& ranks, Index p, Index q, Index elem_bytes) {
  return {ranks.source_rank(p), ranks.dest_rank(q), volumes.at(p, q) * elem_bytes};
}

double comm_seconds(Index elem_bytes, const Schedule* schedule, const RankMap& ranks, const LengthMatrix& volumes,
                    const MachineModel& model) {
  const auto between_ranks = [](const RankMessage& m) { return m.from != m.to && m.bytes > 0; };
  if (schedule == nullptr) {
    std::vector<RankMessage> all;
    for (Index p = 0; p < volumes.P(); ++p) {
      for (Index q = 0; q < volumes.Q(); ++q) {
        if (const RankMessage m = message(volumes, ranks, p, q, elem_bytes); between_ranks(m)) all.push_back(m);
      }
    }
    return concurrent_messages_seconds(all, model);
  }
  double seconds = 0;
  for (const ScheduleStep& step : schedule->steps) {
    std::vector<RankMessage> messages;
    for (const ScheduledMessage& s : step.messages) {
      if (const RankMessage m = message(volumes, ranks, s.src, s.dst, elem_bytes); between_ranks(m)) messages.push_back(m);
    }
    seconds += concurrent_messages_seconds(messages, model);
  }
  return seconds;
}

// Where `relabel` puts the destination processors, and the index work (and, timed by `clock`, the
// time) of finding that out.
Placement placement_of(const Layout& source, const Layout& dest, const RankMap& ranks, RelabelMethod relabel,
                       const std::function<double()>& clock) {
  Placement placement{ranks, {}, 0};
  if (relabel == RelabelMethod::None) return placement;
  const double start = clock ? clock() : 0;
  placement.ranks = relabelled_ranks(source, dest, relabel, placement.work);
  if (clock) placement.seconds = clock() - start;
  return placement;
}

// The busiest host's time for one phase of candidate k: its ranks share its cores.
double busiest_host(const std::vector<std::vector<LocalSeconds>>& local, std::size_t k, double LocalSeconds::*phase,
                    const MachineModel& model) {
  std::vector<double> seconds;
  for (const std::vector<LocalSeconds>& rank : local) seconds.push_back(rank[k].*phase);
  return model.busiest_host(seconds);
}

// The first method that takes the pair and builds its plan without scanning every element.
const IndexingMethod& cheap_planner(const Layout& source, const Layout& dest) {
  for (const IndexingMethod& method : indexing_methods()) {
    if (!method.counted_work && method_takes(method, source, dest)) return method;
  }
  throw std::logic_error("no indexing method plans the pair without scanning it");
}

// Whether the candidate's exchange is exchange_shared_memory (ranks sharing memory, no steps): every
// message packed into the sender's publication area and unpacked out of it in one sweep, the local
// part copied once in one of the two; its comm the agreement and one synchronisation. Sources are
// taken as private: no message copied once (a caller's SharedArray is not known here).
bool exchanges_in_place(const Candidate& candidate, const MachineModel& model) {
  return message_regime({.shared_publication = candidate.schedule == "async" && model.shared_memory}) ==
         MessageRegime::SharedPublication;
}

// Whether the candidate's exchange is exchange_direct (redist's work on ranks that do not share
// memory, no steps): long-pieced messages in place, the others packed, the local part copied once
// while the messages travel, no barrier.
bool runs_exchange_direct(const Candidate& candidate, const MachineModel& model) {
  return candidate.schedule == "async" && !exchanges_in_place(candidate, model);
}

// One rank's counted work for a plan: index, and the copies of its messages, the local part apart.
struct PlanWork {
  Work index;
  Work pack, unpack;              // the messages to and from other ranks
  std::vector<Work> unpacks;      // ... those from other ranks one by one, each copied as it arrives
  Work packed, unpacked;          // ... those of them that exchange_direct packs, as it does
  std::vector<Work> unpacked_one_by_one;
  Work local_pack, local_unpack;  // the local part packed and unpacked, as a message to itself
  Work local_once;                // the local part copied once
  bool local_in_unpack = false;   // ... in the unpacking's sweep (else the packing's)
};

PlanWork plan_work(const Layout& source, const Layout& dest, Index elem_bytes, const Placement& placement,
                   const IndexingMethod& method, Rank me) {
  const WorkAccounting& accounting = redist_work_accounting();
  const RankMap& placed = placement.ranks;
  Work counted;
  // A method that counts its work without a plan (naive) is priced on the runs of a method that
  // plans cheaply: every method lists the same runs (append_piece).
  const RankPlan plan = make_plan(method.counted_work ? cheap_planner(source, dest) : method, source, dest, placed, me,
                                  false, counted);
  if (method.counted_work) counted = method.counted_work(source, dest, placed, me);
  PlanWork work;
  work.index = placement.work;  // plan_redistribution relabels within the index phase
  work.index += accounting.index(plan, counted);
  const LocalPart local = local_part(plan, me);
  for (const PeerPlan& send : plan.sends) {
    const Work pack = accounting.pack(send, elem_bytes);
    (&send == local.send ? work.local_pack : work.pack) += pack;
    if (&send != local.send && !travels_in_place(send, elem_bytes)) work.packed += pack;
  }
  for (const PeerPlan& receive : plan.receives) {
    const Work unpack = accounting.unpack(receive, elem_bytes);
    if (&receive == local.receive) {
      work.local_unpack += unpack;
      continue;
    }
    work.unpack += unpack;
    work.unpacks.push_back(unpack);
    if (!travels_in_place(receive, elem_bytes)) {
      work.unpacked += unpack;
      work.unpacked_one_by_one.push_back(unpack);
    }
  }
  if (!local.empty()) {
    work.local_once = local_copy_work(*local.send, *local.receive, elem_bytes);
    work.local_in_unpack = local_part_in_unpack(*local.send, *local.receive, elem_bytes);
  }
  return work;
}

}  // namespace

std::string Candidate::label() const {
  return indexing + "/" + schedule + "/" + std::string(relabel_method_names().name_of(relabel));
}

std::vector<Candidate> candidates(const Layout& source, const Layout& dest, const RankMap& ranks,
                                  const CandidateRequest& request) {
  return candidate_set(source, dest, ranks, request).list;
}

CandidateSet candidate_set(const Layout& source, const Layout& dest, const RankMap& ranks,
                           const CandidateRequest& request, const std::function<double()>& clock) {
  CandidateSet out;
  out.ranks = ranks;
  const auto indexings = indexing_candidates(source, dest, request.indexing);
  for (const RelabelMethod relabel : relabel_candidates(ranks, request.relabel)) {
    Placement placement = placement_of(source, dest, ranks, relabel, clock);
    for (const std::string& schedule :
         schedule_candidates(source, dest, placement.ranks, request.schedule, relabel, out.schedules)) {
      for (const std::string& indexing : indexings) out.list.push_back({indexing, schedule, relabel});
    }
    out.placements.emplace(relabel, std::move(placement));
  }
  if (out.list.empty()) throw std::invalid_argument("no way to redistribute the layouts is left to choose from");
  return out;
}

CandidateSet candidate_set(const Layout& source, const Layout& dest, const RankMap& ranks,
                           std::vector<Candidate> candidates) {
  CandidateSet out;
  out.ranks = ranks;
  for (const Candidate& c : candidates) {
    if (!out.placements.contains(c.relabel)) out.placements.emplace(c.relabel, placement_of(source, dest, ranks, c.relabel, {}));
  }
  out.list = std::move(candidates);
  return out;
}

std::shared_ptr<const Schedule> CandidateSet::schedule(const Layout& source, const Layout& dest,
                                                       const Candidate& candidate) const {
  auto [at, fresh] = schedules.try_emplace({candidate.relabel, candidate.schedule});
  if (fresh) {
    try {
      at->second = layout_schedule(schedule_from_name(candidate.schedule), source, dest, placement(candidate.relabel).ranks);
    } catch (...) {
      schedules.erase(at);
      throw;
    }
  }
  return at->second;
}

RankMap candidate_ranks(const Layout& source, const Layout& dest, const RankMap& ranks, RelabelMethod relabel) {
  return relabel == RelabelMethod::None ? ranks : relabelled_ranks(source, dest, relabel);
}

std::vector<LocalSeconds> predict_local(const Layout& source, const Layout& dest, Index elem_bytes, const RankMap& ranks,
                                        const std::vector<Candidate>& candidates, const MachineModel& model, Rank me) {
  return predict_local(source, dest, elem_bytes, candidate_set(source, dest, ranks, candidates), model, me);
}

std::vector<LocalSeconds> predict_local(const Layout& source, const Layout& dest, Index elem_bytes,
                                        const CandidateSet& candidates, const MachineModel& model, Rank me) {
  const WorkPrices& prices = model.prices;
  const Index run_ranks = candidates.ranks.ranks_needed(source.processors(), dest.processors());
  const Index copying = model.copying_with(me, run_ranks);
  // Schedules do not change a rank's plan: one per indexing method and placement.
  std::map<std::pair<std::string, RelabelMethod>, PlanWork> planned;
  std::map<RelabelMethod, double> touched_by_placement;  // the bytes the calls of this rank's node touch
  std::vector<LocalSeconds> out;
  for (const Candidate& c : candidates.list) {
    auto [at, fresh] = planned.try_emplace({c.indexing, c.relabel});
    if (fresh) at->second = plan_work(source, dest, elem_bytes, candidates.placement(c.relabel), indexing_method(c.indexing), me);
    const PlanWork& w = at->second;
    auto [touched_at, unseen] = touched_by_placement.try_emplace(c.relabel);
    if (unseen) {
      const std::vector<double> by_rank =
          touched_bytes(source, dest, candidates.placement(c.relabel).ranks, run_ranks, elem_bytes);
      touched_at->second = model.over_node(me, run_ranks, [&](Index r) { return by_rank[static_cast<std::size_t>(r)]; });
    }
    const double touched = touched_at->second;
    const bool direct = runs_exchange_direct(c, model);
    Work pack = direct ? w.packed : w.pack, unpack = direct ? w.unpacked : w.unpack;
    const std::vector<Work>& unpacks = direct ? w.unpacked_one_by_one : w.unpacks;
    Work local_unpack;  // the local part when unpacked on its own
    if (direct) {
      local_unpack += w.local_once;
    } else if (exchanges_in_place(c, model)) {
      (w.local_in_unpack ? local_unpack : pack) += w.local_once;
    } else {
      pack += w.local_pack;
      local_unpack += w.local_unpack;
    }
    if (!model.memory) {  // every byte at one price: the sum's
      unpack += local_unpack;
      out.push_back({prices.seconds_for(w.index), prices.seconds_for(pack), prices.seconds_for(unpack)});
      continue;
    }
    // The node's memory prices a copy by its size and its loop: the packing is one, each message
    // unpacked another (the shared-memory exchange unpacks all of them, the local part too, in one
    // sweep: a sweep's loop from two on); the direct exchange copies its local part on its own, a
    // pack's loop.
    if (exchanges_in_place(c, model)) {
      const std::size_t swept = unpacks.size() + (w.local_in_unpack ? 1 : 0);
      unpack += local_unpack;
      out.push_back({prices.seconds_for(w.index), model.seconds_for(pack, copying, CopyLoop::Pack, touched),
                     model.seconds_for(unpack, copying, unpack_loop(swept), touched)});
      continue;
    }
    double unpack_seconds =
        model.seconds_for(local_unpack, copying, direct ? CopyLoop::Pack : CopyLoop::Unpack, touched);
    for (const Work& message : unpacks) unpack_seconds += model.seconds_for(message, copying, CopyLoop::Unpack, touched);
    out.push_back({prices.seconds_for(w.index), model.seconds_for(pack, copying, CopyLoop::Pack, touched), unpack_seconds});
  }
  return out;
}

std::vector<Prediction> predict(const Layout& source, const Layout& dest, Index elem_bytes, const RankMap& ranks,
                                const std::vector<Candidate>& candidates, const MachineModel& machine,
                                const std::vector<std::vector<LocalSeconds>>& local) {
  return predict(source, dest, elem_bytes, candidate_set(source, dest, ranks, candidates), machine, local);
}

std::vector<Prediction> predict(const Layout& source, const Layout& dest, Index elem_bytes, const CandidateSet& candidates,
                                const MachineModel& machine, const std::vector<std::vector<LocalSeconds>>& local) {
  const LengthMatrix volumes = relabelling_volumes(source, dest);
  const Index run_ranks = static_cast<Index>(local.size());
  const std::optional<MachineModel> oversubscribed = machine.run_by(run_ranks);
  const MachineModel& model = oversubscribed ? *oversubscribed : machine;
  const double barrier = barrier_seconds(run_ranks, model);
  std::vector<Prediction> out;
  for (std::size_t k = 0; k < candidates.list.size(); ++k) {
    const Candidate& c = candidates.list[k];
    Phases phases;
    // The index phase holds no copies: the run's work slowdown (ranks sharing cores) on all of it.
    phases.index = model.work_slowdown * busiest_host(local, k, &LocalSeconds::index, model);
    // Packing and unpacking are copies only: the run's copy slowdown (ranks sharing cores) on all of them.
    phases.pack = model.copy_slowdown * busiest_host(local, k, &LocalSeconds::pack, model);
    phases.unpack = model.copy_slowdown * busiest_host(local, k, &LocalSeconds::unpack, model);
    if (exchanges_in_place(c, model)) {  // the agreement (an allreduce: a barrier's rounds), a barrier
      phases.comm = 2 * barrier;
      phases.total = phases.index + phases.pack + phases.comm + phases.unpack;
    } else if (runs_exchange_direct(c, model)) {  // no barrier: every receive is posted first
      phases.comm = comm_seconds(elem_bytes, candidates.schedule(source, dest, c).get(),
                                 candidates.placement(c.relabel).ranks, volumes, model);
      phases.total = phases.index + phases.pack + phases.comm + phases.unpack;
    } else {
      phases.comm = comm_seconds(elem_bytes, candidates.schedule(source, dest, c).get(),
                                 candidates.placement(c.relabel).ranks, volumes, model);
      phases.total = phases.index + phases.pack + barrier + phases.comm + phases.unpack;
    }
    out.push_back({c, phases});
  }
  return out;
}

std::vector<Prediction> predict_all_ranks(const Layout& source, const Layout& dest, Index elem_bytes,
                                          const RankMap& ranks, const std::vector<Candidate>& candidates,
                                          const MachineModel& model) {
  const Index run_ranks = ranks.ranks_needed(source.processors(), dest.processors());
  const CandidateSet set = candidate_set(source, dest, ranks, candidates);
  std::vector<std::vector<LocalSeconds>> local;
  for (Index rank = 0; rank < run_ranks; ++rank) {
    local.push_back(predict_local(source, dest, elem_bytes, set, model, static_cast<Rank>(rank)));
  }
  return predict(source, dest, elem_bytes, set, model, local);
}

std::size_t fastest(const std::vector<Prediction>& predictions) {
  if (predictions.empty()) throw std::invalid_argument("no prediction to choose from");
  std::size_t best = 0;
  for (std::size_t k = 1; k < predictions.size(); ++k) {
    if (predictions[k].phases.total < predictions[best].phases.total) best = k;
  }
  return best;
}

std::size_t fastest_per_execution(const std::vector<Prediction>& predictions) {
  if (predictions.empty()) throw std::invalid_argument("no prediction to choose from");
  const auto per_execution = [&](std::size_t k) { return predictions[k].phases.total - predictions[k].phases.index; };
  std::size_t best = 0;
  for (std::size_t k = 1; k < predictions.size(); ++k) {
    if (per_execution(k) < per_execution(best)) best = k;
  }
  return best;
}

}  // namespace redist
