// The "redistribute" experiment: one verified 1-D block-cyclic redistribution on a platform.
#include <stdexcept>
#include <string>

#include "redist/analysis/simulation_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/experiments.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/sim/work_accounting.hpp"

namespace redist::sim {
namespace {

const std::vector<std::string> kCountParameters = {"P", "Q", "r", "s", "k", "N", "elem_bytes"};
const std::vector<std::string> kDirections = {"kr->r", "r->kr", "block->cyclic", "cyclic->block"};

Index count(const Params& params, const char* name) {
  if (!params.contains(name)) throw std::invalid_argument(std::string("parameter '") + name + "' is not set");
  const auto& v = params[name];
  if (!v.is_number_integer()) throw std::invalid_argument(std::string("parameter '") + name + "' must be a whole number");
  return v.get<Index>();
}

std::string text(const Params& params, const char* name, const char* fallback) {
  return params.contains(name) ? params[name].get<std::string>() : fallback;
}

void check_value(const std::string& name, const nlohmann::json& value) {
  if (std::find(kCountParameters.begin(), kCountParameters.end(), name) != kCountParameters.end()) {
    if (!value.is_number_integer() || value.get<Index>() <= 0) {
      throw std::invalid_argument("parameter '" + name + "' must be a positive whole number, got " + value.dump());
    }
    return;
  }
  if (name == kWorkParameter) return check_work(value);
  if (!value.is_string()) throw std::invalid_argument("parameter '" + name + "' must be a name, got " + value.dump());
  const auto v = value.get<std::string>();
  if (name == "indexing") indexing_method(v);
  if (name == "schedule") schedule_from_name(v);
  if (name == "direction" && std::find(kDirections.begin(), kDirections.end(), v) == kDirections.end()) {
    throw std::invalid_argument("direction must be kr->r, r->kr, block->cyclic or cyclic->block, got '" + v + "'");
  }
  if (name == "work" && v != "redist" && v != "paper") {
    throw std::invalid_argument("work must be redist (this library's code) or paper (the paper's programs), got '" + v + "'");
  }
  if (name == "placement" && v != "shared" && v != "disjoint") {
    throw std::invalid_argument("placement must be shared or disjoint, got '" + v + "'");
  }
}

// Source and destination block sizes: r and s, or derived from a paper 000 direction — kr->r is
// CYCLIC(k·r) -> CYCLIC(r), r->kr the reverse, block->cyclic is CYCLIC(ceil(N/P)) -> CYCLIC(1).
std::pair<Index, Index> block_sizes(const Params& params, Index P, Index Q, Index N) {
  if (!params.contains("direction")) return {count(params, "r"), count(params, "s")};
  const auto direction = params["direction"].get<std::string>();
  if (direction == "block->cyclic") return {ceil_div(N, P), 1};
  if (direction == "cyclic->block") return {1, ceil_div(N, Q)};
  const Index r = count(params, "r"), kr = checked_mul(count(params, "k"), r, "k*r");
  return direction == "kr->r" ? std::pair{kr, r} : std::pair{r, kr};
}

// The naive method visits every element one at a time on both sides, and the simulation runs every
// rank in this one process: about 2N element visits of host time, whatever the platform or payload.
// Measured: N = 2^24 in 1.9 s on a loaded 2-core machine, so the bound below costs minutes, while
// N = 9e15 would run for decades without a word. The other methods' work grows with the number of
// runs, not of elements. Documented in docs/ARCHITECTURE.md §7.
constexpr Index kNaiveElementLimit = Index{1} << 32;

void refuse_endless_naive(const std::string& indexing, Index N) {
  if (indexing == "naive" && N > kNaiveElementLimit) {
    throw std::invalid_argument("indexing naive visits all N = " + std::to_string(N) +
                                " elements one at a time (hours of host time): it is refused above " +
                                std::to_string(kNaiveElementLimit) + " elements; use krr, pitfalls or prylli");
  }
}

ExperimentResult run(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  const Index P = count(params, "P"), Q = count(params, "Q"), N = count(params, "N");
  const auto [r, s] = block_sizes(params, P, Q, N);
  const Index elem_bytes = params.contains("elem_bytes") ? count(params, "elem_bytes") : 8;
  RedistributeOptions options{elem_bytes, text(params, "indexing", "naive"), text(params, "schedule", "async"),
                                    text(params, "placement", "shared") == "disjoint" ? RankMap::disjoint(P)
                                                                                      : RankMap::shared()};
  options.work = text(params, kWorkParameter, "redist");
  indexing_method(options.indexing);
  schedule_from_name(options.schedule);
  refuse_endless_naive(options.indexing, N);
  // Paper 004's procedure (§5.1): the timed steps only move data, every buffer is unpacked after.
  if (paper_work(params)) options.step_procedure = StepProcedure::Paper004;
  const Layout source = BlockCyclic(N, r, P);
  const Layout dest = BlockCyclic(N, s, Q);
  const Index bytes = checked_mul(N, elem_bytes, "N x element size");

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(options.ranks.ranks_needed(P, Q));
  sim.phantom = runs_phantom(payload, bytes);
  sim.trace_file = trace;
  // Real payload: every rank's source and destination arrays, and the send and receive copies of
  // what moves (at most the whole array), all in this one process.
  if (!sim.phantom) {
    require_memory(bytes_product(static_cast<std::uint64_t>(bytes), 4),
                   "a redistribution of N = " + std::to_string(N) + " elements with real payload",
                   "use --phantom (payload: phantom in a scenario) to simulate message sizes without bytes");
  }
  const auto reports = simulate(sim, [&](Transport& transport) {
    return rank_report_to_json(redistribute_and_verify(transport, source, dest, options));
  });
  const RunSummary summary = verified_summary(reports);
  return {summary.phases,
          summary.messages,
          summary.bytes,
          summary.verified,
          sim.phantom,
          {}};
}

}  // namespace

Experiment redistribute_experiment() {
  // r and s, or a direction (with k and r for kr->r and r->kr), are checked when a run starts.
  ExperimentSpec spec{"redistribute",
                      {"P", "Q", "r", "s", "k", "direction", "N", "elem_bytes", "indexing", "schedule", "placement",
                       kWorkParameter},
                      {"P", "Q", "N"},
                      {Phase::Indexing, Phase::Packing, Phase::Communication, Phase::Unpacking, Phase::PackingUnpacking,
                       Phase::Total},
                      check_value, {}};
  return {spec, run};
}

}  // namespace redist::sim
