// The "redistribute" experiment: one verified 1-D block-cyclic redistribution on a platform.
#include <stdexcept>

#include "redist/analysis/simulation_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/redistribute/methods.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/experiments.hpp"

namespace redist::sim {
namespace {

// Above this much payload per array, `auto` runs phantom: the timing needs no bytes.
constexpr Index kAutoPhantomBytes = Index{64} << 20;

const std::vector<std::string> kCountParameters = {"P", "Q", "r", "s", "N", "elem_bytes"};

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
  if (name == "placement" && v != "shared" && v != "disjoint") {
    throw std::invalid_argument("placement must be shared or disjoint, got '" + v + "'");
  }
}

ExperimentResult run(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  const Index P = count(params, "P"), Q = count(params, "Q"), r = count(params, "r"), s = count(params, "s");
  const Index N = count(params, "N");
  const Index elem_bytes = params.contains("elem_bytes") ? count(params, "elem_bytes") : 8;
  const RedistributeOptions options{elem_bytes, text(params, "indexing", "naive"), text(params, "schedule", "async"),
                                    text(params, "placement", "shared") == "disjoint" ? RankMap::disjoint(P)
                                                                                      : RankMap::shared()};
  indexing_from_name(options.indexing);
  schedule_from_name(options.schedule);
  const Layout source = BlockCyclic(N, r, P);
  const Layout dest = BlockCyclic(N, s, Q);
  const Index bytes = checked_mul(N, elem_bytes, "N x element size");

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(options.ranks.ranks_needed(P, Q));
  sim.phantom = payload == Payload::Phantom || (payload == Payload::Auto && bytes > kAutoPhantomBytes);
  sim.trace_file = trace;
  const auto reports = simulate(sim, [&](Transport& transport) {
    return rank_report_to_json(redistribute_and_verify(transport, source, dest, options));
  });
  const RunSummary summary = summarize_ranks(reports);
  if (summary.verified && !*summary.verified) {
    throw std::runtime_error("verification failed: " + std::to_string(summary.misplaced) +
                             " destination elements hold wrong values");
  }
  const PhaseTimes& t = summary.phases;
  return {{{"index", t.index}, {"pack", t.pack}, {"comm", t.comm}, {"unpack", t.unpack}, {"total", t.total}},
          summary.messages,
          summary.bytes,
          summary.verified,
          sim.phantom};
}

}  // namespace

Experiment redistribute_experiment() {
  ExperimentSpec spec{"redistribute",
                      {"P", "Q", "r", "s", "N", "elem_bytes", "indexing", "schedule", "placement"},
                      {"P", "Q", "r", "s", "N"},
                      {"index", "pack", "comm", "unpack", "total"},
                      check_value};
  return {spec, run};
}

}  // namespace redist::sim
