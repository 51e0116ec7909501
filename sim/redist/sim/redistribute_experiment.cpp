// The "redistribute" experiment: one verified 1-D block-cyclic redistribution on a platform.
#include <stdexcept>

#include <fmt/format.h>
#include <string>
#include <vector>

#include "redist/analysis/simulation_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/experiments.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/sim/work_parameter.hpp"

namespace redist::sim {
namespace {

std::vector<std::string> indexing_names() {
  std::vector<std::string> names;
  for (const auto& method : indexing_methods()) names.emplace_back(method.name);
  return names;
}

// "name: description; ..." of every registered indexing method, and of every schedule.
std::string indexing_descriptions() {
  std::string text;
  for (const auto& method : indexing_methods()) {
    text += (text.empty() ? "" : "; ") + std::string(method.name) + ": " + std::string(method.description);
  }
  return text;
}

std::string schedule_descriptions() {
  std::string text;
  for (const ScheduleChoice choice : schedule_names().values()) {
    text += (text.empty() ? "" : "; ") + std::string(name_of(choice)) + ": " + std::string(description_of(choice));
  }
  return text;
}

// Built on first use, after any indexing method a program registers at start-up.
const ExperimentSpec& redistribute_schema() {
  // `redist simulate` reports the r and s it ran, so k and direction stay in scenarios.
  static const ExperimentSpec spec{
      "redistribute",
      "The 1-D redistribution CYCLIC(r)/P → CYCLIC(s)/Q of N elements",
      "simulate",
      {{.name = "P", .meaning = "source processors", .min = 1, .required = true},
       {.name = "Q", .meaning = "destination processors", .min = 1, .required = true},
       {.name = "r", .meaning = "source block size (or a direction)", .min = 1},
       {.name = "s", .meaning = "destination block size (or a direction)", .min = 1},
       {.name = "k", .meaning = "the factor of directions kr->r and r->kr", .min = 1, .on_command_line = false},
       {.name = "direction",
        .meaning = "instead of r and s: kr->r is CYCLIC(k·r) → CYCLIC(r) and r->kr the reverse (with k and r), "
                   "block->cyclic is CYCLIC(ceil(N/P)) → CYCLIC(1) and cyclic->block the reverse",
        .names = {"kr->r", "r->kr", "block->cyclic", "cyclic->block"},
        .on_command_line = false},
       {.name = "N", .meaning = "array size in elements", .min = 1, .required = true},
       {.name = "elem_bytes", .meaning = "bytes per element", .min = 1, .default_value = 8},
       {.name = "indexing",
        .meaning = "indexing method. " + indexing_descriptions() +
                   ". Naive is refused when its 2N element visits, one at a time, would take more than 10 "
                   "minutes of host time (N above about 5.3e9)",
        .names = indexing_names(),
        .default_value = "naive"},
       {.name = "schedule",
        .meaning = "communication schedule. " + schedule_descriptions(),
        .names = names_of(schedule_names()), .default_value = "async"},
       {.name = "placement",
        .meaning = "source and destination processors: the same ranks, or destinations on ranks P, P+1, ...",
        .names = {"shared", "disjoint"},
        .default_value = "shared"},
       {.name = "relabel",
        .meaning = "destination processors placed on the ranks that hold most of their data: none, "
                   "exact (maximum-weight assignment) or greedy (COSTA's); with placement shared. Reports "
                   "bytes_kept, the bytes that stay on their rank, and bytes_kept_unrelabelled",
        .names = names_of(relabel_method_names()),
        .default_value = "none"},
       {.name = "hosts",
        .meaning = "hosts the ranks run on in turn (rank i on node-(i mod hosts)), as oversubscribed MPI ranks "
                   "share cores (`redist validate`); absent: one host per rank",
        .min = 1},
       {.name = "sources",
        .meaning = "where the ranks' source arrays lie: private memory, or storage every rank of the node reads "
                   "in place (redist::mpi's SharedArray), from which redist's exchange copies long-pieced messages "
                   "once where the ranks share memory",
        .names = {"private", "shared"},
        .default_value = "private"},
       {.name = "repeat",
        .meaning = "executions of one plan: the index phase is the plan, made once; pack, comm and unpack the "
                   "mean execution; total the plan plus one mean execution (redist::mpi::Plan's practice)",
        .min = 1,
        .max = 1000,
        .default_value = 1},
       work_parameter("Krr's full tables, PITFALLS' and Prylli's per-peer intersection lists, element-by-element "
                      "copies; scheduled exchanges timed as paper 004 §5.1")},
      {Phase::Indexing, Phase::Packing, Phase::Communication, Phase::Unpacking, Phase::PackingUnpacking, Phase::Total},
      {},
      "Seconds, each the maximum over ranks; pack_unpack = pack + unpack"};
  return spec;
}

// Source and destination block sizes: r and s, or derived from a paper 000 direction — kr->r is
// CYCLIC(k·r) -> CYCLIC(r), r->kr the reverse, block->cyclic is CYCLIC(ceil(N/P)) -> CYCLIC(1).
std::pair<Index, Index> block_sizes(const ParameterValues& v, Index P, Index Q, Index N) {
  if (!v.given("direction")) return {v.integer("r"), v.integer("s")};
  const auto direction = v.text("direction");
  if (direction == "block->cyclic") return {ceil_div(N, P), 1};
  if (direction == "cyclic->block") return {1, ceil_div(N, Q)};
  const Index r = v.integer("r"), kr = checked_mul(v.integer("k"), r, "k*r");
  return direction == "kr->r" ? std::pair{kr, r} : std::pair{r, kr};
}

// Rank i on node-(i mod hosts) with `hosts` set, else (empty) rank i on node-i.
std::vector<std::string> rank_hosts(const ParameterValues& v, Index ranks) {
  std::vector<std::string> hosts;
  if (!v.given("hosts")) return hosts;
  for (Index k = 0; k < ranks; ++k) hosts.push_back("node-" + std::to_string(k % v.integer("hosts")));
  return hosts;
}

// The naive method visits every element one at a time on both sides, and the simulation runs every
// rank in this one process: about 2N element visits of host time, whatever the platform or payload.
// Measured: N = 2^24 in 1.9 s on a loaded 2-core machine, about 57 ns a visit. A run is refused when
// that estimate passes kNaiveSecondsLimit (N above about 5.3e9), while N = 9e15 would run for decades
// without a word. The other methods' work grows with the number of runs, not of elements.
// Documented in docs/ARCHITECTURE.md §7.
constexpr double kNaiveSecondsPerVisit = 1.9 / (2.0 * 16777216.0);
constexpr double kNaiveSecondsLimit = 600;

std::string duration_words(double seconds) {
  if (seconds < 120) return std::to_string(static_cast<long long>(seconds)) + " s";
  if (seconds < 7200) return std::to_string(static_cast<long long>(seconds / 60)) + " minutes";
  if (seconds < 2 * 86400) return std::to_string(static_cast<long long>(seconds / 3600)) + " hours";
  if (seconds < 2 * 365 * 86400.0) return std::to_string(static_cast<long long>(seconds / 86400)) + " days";
  return fmt::format("{:.3g} years", seconds / (365 * 86400.0));
}

void refuse_endless_naive(const std::string& indexing, Index N) {
  const double seconds = 2.0 * static_cast<double>(N) * kNaiveSecondsPerVisit;
  if (indexing == "naive" && seconds > kNaiveSecondsLimit) {
    throw std::invalid_argument("indexing naive visits all N = " + std::to_string(N) +
                                " elements one at a time: about " + duration_words(seconds) +
                                " of host time (2N visits of 57 ns), more than the 10 minutes allowed; use krr, "
                                "pitfalls or prylli");
  }
}

// What relabelling kept local: the run's bytes, and those of the same pair numbered as is (every
// destination processor q on rank q), from the exact volumes relabelling chose by.
std::map<std::string, double> kept_local_quantities(Index kept, const Layout& source, const Layout& dest,
                                                    Index elem_bytes) {
  const Index unrelabelled = kept_without_relabelling(relabelling_volumes(source, dest));
  return {{"bytes_kept", static_cast<double>(kept)},
          {"bytes_kept_unrelabelled", static_cast<double>(unrelabelled * elem_bytes)}};
}

// What a run is refused for before anything is built: the naive method's time, the array's bytes
// and, with real payload, its memory. Run before every run of a scenario, and by the run itself.
void check_redistribute(const Params& params, Payload payload) {
  const ParameterValues v(redistribute_schema(), params);
  const Index N = v.integer("N");
  block_sizes(v, v.integer("P"), v.integer("Q"), N);  // k x r may overflow
  refuse_endless_naive(v.text("indexing"), N);
  const Index bytes = checked_mul(N, v.integer("elem_bytes"), "N x element size");
  if (!runs_phantom(payload, bytes)) {
    require_memory(bytes_product(static_cast<std::uint64_t>(bytes), 4),
                   "a redistribution of N = " + std::to_string(N) + " elements with real payload",
                   "use --phantom (payload: phantom in a scenario) to simulate message sizes without bytes");
  }
}

ExperimentResult run_redistribute(const std::string& platform, const Params& params, Payload payload,
                                  const std::string& trace) {
  check_redistribute(params, payload);
  const ParameterValues v(redistribute_schema(), params);
  const Index P = v.integer("P"), Q = v.integer("Q"), N = v.integer("N");
  const auto [r, s] = block_sizes(v, P, Q, N);
  const Index elem_bytes = v.integer("elem_bytes");
  const Layout source = BlockCyclic(N, r, P);
  const Layout dest = BlockCyclic(N, s, Q);
  RedistributeOptions options{.elem_bytes = elem_bytes,
                              .indexing = v.text("indexing"),
                              .schedule = v.text("schedule"),
                              .ranks = v.text("placement") == "disjoint" ? RankMap::disjoint(P) : RankMap::shared()};
  const RelabelMethod relabel = relabel_method_names().from_name(v.text("relabel"));
  if (relabel != RelabelMethod::None) {
    if (v.text("placement") == "disjoint") {
      throw std::invalid_argument("relabel " + v.text("relabel") +
                                  " places destination processors on the sources' ranks: it needs placement shared");
    }
    // Where the ranks' data lies, as redist::mpi::choose() tells a caller; the plan relabels again,
    // charged in its index phase, as redist does on every call.
    options.ranks = relabelled_ranks(source, dest, relabel);
    options.relabel = v.text("relabel");
  }
  options.work = v.text("work");
  // Paper 004's procedure (§5.1): the timed steps only move data, every buffer is unpacked after.
  if (paper_work(v)) options.step_procedure = StepProcedure::Paper004;
  const Index bytes = checked_mul(N, elem_bytes, "N x element size");
  const auto executions = static_cast<int>(v.integer("repeat"));

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(options.ranks.ranks_needed(P, Q));
  sim.rank_hosts = rank_hosts(v, sim.ranks);
  sim.phantom = runs_phantom(payload, bytes);
  sim.sources_shared = v.text("sources") == "shared";
  sim.trace_file = trace;
  // Real payload: every rank's source and destination arrays, and the send and receive copies of
  // what moves (at most the whole array), all in this one process; checked by check_redistribute.
  const auto reports = simulate(sim, [&](Transport& transport) {
    return rank_report_to_json(redistribute_and_verify(transport, source, dest, options, executions));
  });
  const RunSummary summary = verified_summary(reports);
  std::map<std::string, double> quantities;
  if (relabel != RelabelMethod::None) quantities = kept_local_quantities(summary.bytes_kept, source, dest, elem_bytes);
  return {summary.phases, summary.messages, summary.bytes, summary.verified, sim.phantom, std::move(quantities)};
}

}  // namespace

Experiment redistribute_experiment() { return {redistribute_schema(), run_redistribute, check_redistribute}; }

}  // namespace redist::sim
