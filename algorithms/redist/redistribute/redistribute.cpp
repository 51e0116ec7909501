#include "redist/redistribute/redistribute.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/redistribute/input_checks.hpp"
#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/plan_exchange.hpp"
#include "redist/redistribute/redistribution_plan.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/redistribute/shared_memory_exchange.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/transport/message_regime.hpp"

namespace redist {
namespace {

// The fastest combination in bench/mpi_vs_pdgemr2d on 4 ranks (see mpi/README.md).
constexpr const char* kDefaultIndexing = "prylli";
constexpr const char* kDefaultSchedule = "async";

// Elements of local storage the runs of `peers` reach: one past the highest offset.
Index storage_reached(const std::vector<PeerPlan>& peers) {
  Index end = 0;
  for (const PeerPlan& peer : peers) {
    for (const Run& run : peer.runs) end = std::max(end, run.local_start + (run.count - 1) * run.stride + run.length);
  }
  return end;
}

}  // namespace

RedistributeOptions resolve_defaults(RedistributeOptions options) {
  if (options.indexing == kDefaultName) options.indexing = kDefaultIndexing;
  if (options.schedule == kDefaultName) options.schedule = kDefaultSchedule;
  return options;
}

bool has_auto_choice(const RedistributeOptions& o) {
  return o.indexing == kAutoName || o.schedule == kAutoName || o.relabel == kAutoName;
}

RedistributionPlan plan_redistribution(Transport& transport, const Layout& source, const Layout& dest,
                                       const RedistributeOptions& given, const PlanInputs& inputs) {
  RedistributionPlan p{0, 0, resolve_defaults(given), {}, nullptr, nullptr, 0, 0, 0, nullptr};
  if (std::string problem = call_problem(source, dest, p.options, transport.size()); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (has_auto_choice(p.options)) {
    throw std::invalid_argument("auto is resolved before planning (redist::mpi's Plan and choose(), or resolve_choices)");
  }
  // Relabelling is index work (which rank holds what), timed and charged with the plan; the
  // schedule computed between the two is not (paper 004 §5.1). A placement found already (by
  // resolve_choices) is charged and timed as if found here: its work, and the seconds it took.
  if (const RelabelMethod relabel = relabel_method_names().from_name(p.options.relabel); relabel != RelabelMethod::None) {
    const double start = transport.now();
    if (inputs.placement) {
      p.options.ranks = inputs.placement->ranks;
      transport.charge(inputs.placement->work);
      p.relabel_seconds = inputs.placement->seconds + (transport.now() - start);
    } else {
      Work counted;
      p.options.ranks = relabelled_ranks(source, dest, relabel, counted);
      transport.charge(counted);
      p.relabel_seconds = transport.now() - start;
    }
  }
  const RedistributeOptions& options = p.options;
  const auto processor = options.ranks.source_of(transport.rank(), source.processors());
  const auto dest_processor = options.ranks.dest_of(transport.rank(), dest.processors());
  p.source_elements = processor ? source.local_size(*processor) : 0;
  p.dest_elements = dest_processor ? dest.local_size(*dest_processor) : 0;
  const IndexingMethod& indexing = indexing_method(options.indexing);
  p.accounting = work_accounting(options.work, indexing.name, source, dest, options.ranks, transport.rank());
  // Computed by every rank from the layouts, before the timed phases, as paper 004 §5.1 does.
  if (const ScheduleChoice schedule = schedule_from_name(options.schedule)) {
    p.schedule = inputs.schedule ? *inputs.schedule
                                 : layout_schedule(schedule, source, dest, options.ranks, options.step_procedure);
  }
  p.started = transport.now();
  Work counted;
  p.plan = make_plan(indexing, source, dest, options.ranks, transport.rank(), !transport.phantom(), counted);
  transport.charge(p.accounting->index(p.plan, counted));
  p.seconds = p.relabel_seconds + (transport.now() - p.started);
  return p;
}

RedistributionPlan plan_of_messages(RankPlan plan, Index elem_bytes, std::string made_by) {
  RedistributionPlan p;
  p.options = resolve_defaults({.elem_bytes = elem_bytes, .indexing = std::move(made_by), .schedule = "async"});
  p.source_elements = storage_reached(plan.sends);
  p.dest_elements = storage_reached(plan.receives);
  p.plan = std::move(plan);
  // redist's accounting lives as long as the process: shared without an owner.
  p.accounting = std::shared_ptr<const WorkAccounting>(std::shared_ptr<void>(), &redist_work_accounting());
  return p;
}

bool runs_own_exchange(const RedistributionPlan& plan) {
  return !plan.schedule && !plan.accounting->packs_every_message();
}

RedistributeReport execute(Transport& transport, const RedistributionPlan& p, std::span<const std::byte> source_local,
                           std::span<std::byte> dest_local) {
  const RedistributeOptions& options = p.options;
  if (!transport.phantom()) {
    const Rank me = transport.rank();
    if (std::string problem =
            buffer_problem(p.source_elements, p.dest_elements, options.elem_bytes, source_local, dest_local);
        !problem.empty()) {
      throw std::invalid_argument("rank " + std::to_string(me) + ": " + problem);
    }
  }
  RedistributeReport report;
  const double start = transport.now();
  // Ranks that share memory publish their messages rather than send them, whoever's work is
  // charged (a paper's program packs every message anyway); a layer that offers publication call
  // by call (MPI's) is asked for redist's own exchange only, the papers' programs sending their
  // messages as they did. A schedule's steps stay messages.
  bool published = false;
  if (!p.schedule && (transport.shares_memory() || runs_own_exchange(p))) {
    const Transport::PublicationOffer offer =
        transport.publication_offer(publication_ask(p.plan, transport.rank(), source_local));
    if (message_regime({.shared_publication = offer.offered}) == MessageRegime::SharedPublication) {
      try {
        exchange_shared_memory(transport, p.plan, options.elem_bytes, source_local, dest_local, *p.accounting, report,
                               offer.once_piece_bytes.value_or(kOncePieceBytes));
        published = true;
      } catch (const PublicationUnavailable&) {  // on every rank, before anything was written
        report = RedistributeReport{};
      }
    }
  }
  if (!published && runs_own_exchange(p)) {
    exchange_direct(transport, p.plan, MessagePlaces::kept(p.places, transport, p.plan, options.elem_bytes),
                    options.elem_bytes, source_local, dest_local, *p.accounting, report);
  } else if (!published) {
    exchange_plan(transport, p.plan, options.elem_bytes, source_local, dest_local, p.schedule, options.ranks, report, {},
                  options.step_procedure, *p.accounting);
  }
  report.phases.total = transport.now() - start;
  report.bytes_kept = elements_kept(p.plan, transport.rank()) * options.elem_bytes;
  return report;
}

RedistributeReport redistribute(Transport& transport, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const RedistributeOptions& given) {
  // Buffers that cannot be right are refused before the plan takes memory and time.
  if (!transport.phantom()) {
    const RedistributeOptions o = resolve_defaults(given);
    if (call_problem(source, dest, o, transport.size()).empty()) {
      const Rank me = transport.rank();
      if (std::string problem = buffer_problem_before_planning(source, dest, o, me, source_local, dest_local);
          !problem.empty()) {
        throw std::invalid_argument("rank " + std::to_string(me) + ": " + problem);
      }
    }
  }
  const RedistributionPlan plan = plan_redistribution(transport, source, dest, given);
  RedistributeReport report = execute(transport, plan, source_local, dest_local);
  report.phases.index = plan.seconds;
  report.phases.total = plan.relabel_seconds + (transport.now() - plan.started);
  return report;
}

}  // namespace redist
