#include "redist/mpi/plan.hpp"

#include <optional>
#include <string>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/mpi/agreement.hpp"
#include "redist/mpi/direct_exchange.hpp"
#include "redist/mpi/layout_fingerprint.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/mpi/shared_memory_exchange.hpp"
#include "redist/redistribute/input_checks.hpp"
#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/plan_exchange.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/schedule/schedule_choice.hpp"

namespace redist::mpi {
namespace {

std::uint64_t digest(const Layout& source, const Layout& dest, const RedistributeOptions& o) {
  return fingerprint(describe(source) + "|" + describe(dest) + "|" + std::to_string(o.elem_bytes) + "|" + o.indexing +
                     "|" + o.schedule + "|" + std::to_string(o.ranks.source_first) + "," +
                     std::to_string(o.ranks.dest_first) + "|" + o.work + "|" +
                     std::to_string(static_cast<int>(o.step_procedure)) + "|" +
                     (shared_memory_wanted() ? "shm" : "messages"));
}

}  // namespace

struct Plan::State {
  State(MPI_Comm user, const Layout& from, const Layout& to, const RedistributeOptions& o)
      : comm(user), transport(user), source(from), dest(to), options(o) {}

  MPI_Comm comm;           // the caller's: the shared window is kept with it
  MpiTransport transport;  // a duplicate, for the plan's messages and checks
  Layout source, dest;
  RedistributeOptions options;
  bool own_exchange = false;  // redist's asynchronous exchange (else the algorithms' exchange_plan)
  RankPlan plan;
  std::optional<MessageDatatypes> datatypes;  // made at the first exchange as messages
  std::shared_ptr<const Schedule> schedule;   // the algorithms' exchange: its steps, if scheduled
  std::unique_ptr<WorkAccounting> accounting;
  double seconds = 0;
};

Plan::Plan(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options)
    : state_(std::make_unique<State>(comm, source, dest, resolve_defaults(options))) {
  State& s = *state_;
  const RedistributeOptions& o = s.options;
  agree_on_input(s.transport.comm(), digest(source, dest, o), call_problem(source, dest, o, s.transport.size()),
                 "layouts or options");
  const IndexingMethod& method = indexing_method(o.indexing);
  const Rank me = s.transport.rank();
  s.own_exchange = o.schedule == "async" && o.work == "redist";
  // The schedule is derived from the layouts alone, outside the timed index phase (as the
  // algorithms' redistribute() and paper 004 §5.1 do).
  if (!s.own_exchange) {
    s.accounting = work_accounting(o.work, method.name, source, dest, o.ranks, me);
    if (const ScheduleChoice choice = schedule_from_name(o.schedule)) {
      s.schedule = layout_schedule(choice, source, dest, o.ranks, o.step_procedure);
    }
  }
  const double start = s.transport.now();
  Work counted;
  s.plan = make_plan(method, source, dest, o.ranks, me, true, counted);
  s.seconds = s.transport.now() - start;
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

double Plan::plan_seconds() const { return state_->seconds; }

RedistributeReport Plan::execute(std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  return execute_typed(source_local, dest_local, state_->options.elem_bytes);
}

RedistributeReport Plan::execute_typed(std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                       Index type_bytes) {
  State& s = *state_;
  const RedistributeOptions& o = s.options;
  const Rank me = s.transport.rank();
  std::string problem = buffer_problem(s.source, s.dest, o, me, source_local.size(), dest_local.size());
  if (problem.empty() && type_bytes != o.elem_bytes) {
    problem = "elements of " + std::to_string(type_bytes) + " bytes given to a plan for " +
              std::to_string(o.elem_bytes) + "-byte elements";
  }
  agree_on_problems(s.transport.comm(), problem);

  RedistributeReport report;
  const double start = s.transport.now();
  if (!s.own_exchange) {
    exchange_plan(s.transport, s.plan, o.elem_bytes, source_local, dest_local, s.schedule, o.ranks, report, {},
                  o.step_procedure, *s.accounting);
  } else if (use_shared_memory(s.comm)) {
    exchange_shared_memory(s.comm, s.plan, o.elem_bytes, source_local, dest_local, report);
  } else {
    if (!s.datatypes) s.datatypes = MessageDatatypes::for_plan(s.plan, o.elem_bytes, me);
    exchange_direct(s.transport, s.plan, *s.datatypes, o.elem_bytes, source_local, dest_local, report);
  }
  report.phases.total = s.transport.now() - start;
  return report;
}

}  // namespace redist::mpi
