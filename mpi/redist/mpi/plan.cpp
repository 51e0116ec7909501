#include "redist/mpi/plan.hpp"

#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "redist/mpi/agreement.hpp"
#include "redist/mpi/call_digest.hpp"
#include "redist/mpi/kept_transport.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/mpi/shared_window_publication.hpp"
#include "redist/predict/auto_choice.hpp"
#include "redist/predict/prediction.hpp"
#include "redist/redistribute/input_checks.hpp"
#include "redist/redistribute/redistribution_plan.hpp"
#include "redist/redistribute/relabelling.hpp"

namespace redist::mpi {
namespace {

std::string environment_text(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// A problem with this process's settings of the exchange, if any.
std::string settings_problem() {
  try {
    once_piece_bytes();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// The call's digest, with this process's settings of the exchange: every rank must run the same one.
std::uint64_t digest(const Layout& source, const Layout& dest, const RedistributeOptions& o) {
  return Digest()
      .add(call_digest(source, dest, o))
      .add(shared_memory_wanted())
      .add(environment_text("REDIST_MPI_ONCE_PIECE_BYTES"))
      .value();
}

// The relabelling an explicit method (exact or greedy) gives, timed and counted as planning would;
// none for none or auto (auto's is chosen after agreeing).
std::optional<Placement> explicit_placement(const MpiTransport& transport, const Layout& source, const Layout& dest,
                                            const RedistributeOptions& o) {
  if (o.relabel == kAutoName) return std::nullopt;
  const RelabelMethod method = relabel_method_names().from_name(o.relabel);
  if (method == RelabelMethod::None) return std::nullopt;
  const double start = transport.now();
  Placement placed;
  placed.ranks = relabelled_ranks(source, dest, method, placed.work);
  placed.seconds = transport.now() - start;
  return placed;
}

// Every rank checks the same input (same layouts and options everywhere, nothing wrong with them)
// and, when they are given, its own buffers (sizes, null, overlap) before any plan takes memory.
// With an explicit relabelling and buffers, the relabelling (every rank's same computation) is
// found first and returned, for the plan: the destination buffer is then checked exactly, and the
// move needs no agreement of its own.
std::optional<Placement> agree_on_call(const MpiTransport& transport, const Layout& source, const Layout& dest,
                                       const RedistributeOptions& o, std::span<const std::byte> const* buffers = nullptr) {
  std::optional<Placement> placed;
  std::string problem = call_problem(source, dest, o, transport.size());
  if (problem.empty()) problem = settings_problem();
  if (problem.empty() && buffers != nullptr) {
    try {
      placed = explicit_placement(transport, source, dest, o);
    } catch (const std::exception& e) {  // on this rank's input only: the ranks must still agree
      problem = e.what();
    }
    if (problem.empty() && placed) {
      RedistributeOptions placed_options = o;
      placed_options.ranks = placed->ranks;
      problem = buffer_problem(source, dest, placed_options, transport.rank(), buffers[0], buffers[1]);
    } else if (problem.empty()) {
      problem = buffer_problem_before_planning(source, dest, o, transport.rank(), buffers[0], buffers[1]);
    }
  }
  agree_on_input(transport.comm(), digest(source, dest, o), problem, "layouts or options");
  return placed;
}

}  // namespace

Options choose(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options, bool kept_plan) {
  MpiTransport& transport = *kept_transport(comm);
  const RedistributeOptions o = resolve_defaults(options);
  agree_on_call(transport, source, dest, o);
  ResolvedChoices resolved = resolve_choices(transport, source, dest, o, kept_plan);
  Options chosen = std::move(resolved.options);
  // Where a Plan made with `chosen` puts the data, for the caller to place its own by: the
  // placement choosing found, else (nothing was auto) the relabelling's.
  const RelabelMethod relabel = relabel_method_names().from_name(chosen.relabel);
  if (relabel != RelabelMethod::None) {
    chosen.ranks = resolved.inputs.placement ? resolved.inputs.placement->ranks : candidate_ranks(source, dest, chosen.ranks, relabel);
  }
  return chosen;
}

struct Plan::State {
  explicit State(std::shared_ptr<MpiTransport> messages) : transport(std::move(messages)) {}

  // On a duplicate of the caller's communicator, for the plan's messages and checks; the shared
  // window is kept with the caller's, for all the plans on it.
  std::shared_ptr<MpiTransport> transport;
  std::optional<RedistributionPlan> planned;  // the algorithms' plan (index sets, schedule), once agreed
  // One execution at a time: two at once would mix their messages (same peers, same tags) and
  // wait for each other's. See the thread rules in plan.hpp.
  std::mutex executing;
};

Plan::Plan(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options)
    : Plan(std::make_shared<MpiTransport>(comm), source, dest, options, nullptr) {}

Plan::Plan(std::shared_ptr<MpiTransport> messages, const Layout& source, const Layout& dest, const Options& options,
           const Buffers* buffers)
    : state_(std::make_unique<State>(std::move(messages))) {
  State& s = *state_;
  MpiTransport& transport = *s.transport;
  const RedistributeOptions o = resolve_defaults(options);
  std::optional<Placement> placed;
  if (buffers != nullptr) {
    const std::span<const std::byte> given[2] = {buffers->source, buffers->dest};
    placed = agree_on_call(transport, source, dest, o, given);
  } else {
    agree_on_call(transport, source, dest, o);
  }
  ResolvedChoices resolved = resolve_choices(transport, source, dest, o);
  if (placed) resolved.inputs.placement = std::move(placed);
  s.planned = plan_redistribution(transport, source, dest, resolved.options, resolved.inputs);
}

Plan::Plan(std::shared_ptr<MpiTransport> transport, RedistributionPlan planned)
    : state_(std::make_unique<State>(std::move(transport))) {
  state_->planned = std::move(planned);
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

double Plan::plan_seconds() const { return state_->planned->seconds; }

const Options& Plan::options() const { return state_->planned->options; }

const RedistributionPlan& Plan::planned() const { return *state_->planned; }

RedistributeReport Plan::execute(std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  return execute_typed(source_local, dest_local, state_->planned->options.elem_bytes);
}

RedistributeReport Plan::execute_agreed(std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  return execute_typed(source_local, dest_local, state_->planned->options.elem_bytes, true);
}

RedistributeReport Plan::execute_typed(std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                       Index type_bytes, bool agreed) {
  State& s = *state_;
  const std::lock_guard<std::mutex> one_at_a_time(s.executing);
  RedistributionPlan& p = *s.planned;
  const RedistributeOptions& o = p.options;
  MpiTransport& transport = *s.transport;
  const Rank me = transport.rank();
  // Agreed buffers were checked with the call (or derived from the plan): their sizes alone guard
  // against misuse here.
  std::string problem =
      agreed ? buffer_size_problem(p.source_elements, p.dest_elements, o.elem_bytes, source_local, dest_local)
             : buffer_problem(p.source_elements, p.dest_elements, o.elem_bytes, source_local, dest_local);
  if (problem.empty() && type_bytes != o.elem_bytes) {
    problem = "elements of " + std::to_string(type_bytes) + " bytes given to a plan for " +
              std::to_string(o.elem_bytes) + "-byte elements";
  }
  if (agreed && !problem.empty()) throw std::invalid_argument("rank " + std::to_string(me) + ": " + problem);
  if (!agreed) agree_on_problems(transport.comm(), problem);

  // The algorithms' execute() chooses the exchange: MpiTransport offers its shared window to
  // redist's own exchange where the ranks share a node (publication_offer).
  return redist::execute(transport, p, source_local, dest_local);
}

}  // namespace redist::mpi
