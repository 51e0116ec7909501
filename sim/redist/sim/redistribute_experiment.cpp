// The "redistribute" experiment: one verified 1-D block-cyclic redistribution on a platform.
#include <stdexcept>

#include "redist/analysis/simulation_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/redistribute/methods.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/experiments.hpp"

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
  if (!value.is_string()) throw std::invalid_argument("parameter '" + name + "' must be a name, got " + value.dump());
  const auto v = value.get<std::string>();
  if (name == "indexing") indexing_from_name(v);
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

ExperimentResult run(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  const Index P = count(params, "P"), Q = count(params, "Q"), N = count(params, "N");
  const auto [r, s] = block_sizes(params, P, Q, N);
  const Index elem_bytes = params.contains("elem_bytes") ? count(params, "elem_bytes") : 8;
  const RedistributeOptions options{elem_bytes, text(params, "indexing", "naive"), text(params, "schedule", "async"),
                                    text(params, "placement", "shared") == "disjoint" ? RankMap::disjoint(P)
                                                                                      : RankMap::shared(),
                                    text(params, "work", "redist")};
  indexing_from_name(options.indexing);
  schedule_from_name(options.schedule);
  const Layout source = BlockCyclic(N, r, P);
  const Layout dest = BlockCyclic(N, s, Q);
  const Index bytes = checked_mul(N, elem_bytes, "N x element size");

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(options.ranks.ranks_needed(P, Q));
  sim.phantom = runs_phantom(payload, bytes);
  sim.trace_file = trace;
  const auto reports = simulate(sim, [&](Transport& transport) {
    return rank_report_to_json(redistribute_and_verify(transport, source, dest, options));
  });
  const RunSummary summary = verified_summary(reports);
  auto phases = phase_seconds(summary.phases);
  phases["pack_unpack"] = summary.phases.pack + summary.phases.unpack;
  return {std::move(phases),
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
                      {"P", "Q", "r", "s", "k", "direction", "N", "elem_bytes", "indexing", "schedule", "placement", "work"},
                      {"P", "Q", "N"},
                      {"index", "pack", "comm", "unpack", "pack_unpack", "total"},
                      check_value, {}};
  return {spec, run};
}

}  // namespace redist::sim
