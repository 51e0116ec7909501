#include "redist/redistribute/redistribute.hpp"

#include <stdexcept>
#include <string>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/redistribute/input_checks.hpp"
#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/plan_exchange.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/redistribute/work_accounting.hpp"

namespace redist {
namespace {

// The fastest combination in bench/mpi_vs_pdgemr2d on 4 ranks (see mpi/README.md).
constexpr const char* kDefaultIndexing = "prylli";
constexpr const char* kDefaultSchedule = "async";

void validate(const Transport& transport, const Layout& source, const Layout& dest,
              std::span<const std::byte> source_local, std::span<std::byte> dest_local,
              const RedistributeOptions& options) {
  if (std::string problem = call_problem(source, dest, options, transport.size()); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (transport.phantom()) return;
  const Rank me = transport.rank();
  if (std::string problem = buffer_problem(source, dest, options, me, source_local.size(), dest_local.size());
      !problem.empty()) {
    throw std::invalid_argument("rank " + std::to_string(me) + ": " + problem);
  }
}

}  // namespace

RedistributeOptions resolve_defaults(RedistributeOptions options) {
  if (options.indexing == kDefaultName) options.indexing = kDefaultIndexing;
  if (options.schedule == kDefaultName) options.schedule = kDefaultSchedule;
  return options;
}

RedistributeReport redistribute(Transport& transport, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const RedistributeOptions& given) {
  const RedistributeOptions options = resolve_defaults(given);
  validate(transport, source, dest, source_local, dest_local, options);
  const IndexingMethod& indexing = indexing_method(options.indexing);
  const ScheduleChoice schedule = schedule_from_name(options.schedule);
  const auto accounting = work_accounting(options.work, indexing.name, source, dest, options.ranks, transport.rank());
  // Computed by every rank from the layouts, before the timed phases, as paper 004 §5.1 does.
  const auto steps = layout_schedule(schedule, source, dest, options.ranks, options.step_procedure);
  const bool real = !transport.phantom();
  const Index eb = options.elem_bytes;
  RedistributeReport report;
  Phases& t = report.phases;
  const double start = transport.now();

  Work counted;
  const RankPlan plan = make_plan(indexing, source, dest, options.ranks, transport.rank(), real, counted);
  transport.charge(accounting->index(plan, counted));
  t.index = transport.now() - start;

  exchange_plan(transport, plan, eb, source_local, dest_local, schedule ? steps : nullptr, options.ranks, report, {},
                options.step_procedure, *accounting);
  t.total = transport.now() - start;
  return report;
}

}  // namespace redist
