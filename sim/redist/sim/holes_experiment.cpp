// The "holes" experiment (paper 003, Fig. 9): generating one processor's compressed local array of
// a two-level mapping, `iterations` times, on one host of the platform (the DEC Alpha 3000/400 in the
// paper). The work each method counts is priced by the platform; phase "generate" is the total.
#include <stdexcept>
#include <vector>

#include "redist/holes/local_array.hpp"
#include "redist/holes/virtual_block.hpp"
#include "redist/holes/virtual_cyclic.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/experiments.hpp"

namespace redist::sim {
namespace {

const std::vector<std::string> kCounts = {"P", "x", "s", "o", "n", "iterations", "proc"};
const std::vector<std::string> kMethods = {"table", "virtual-block", "virtual-cyclic"};

Index count(const Params& params, const char* name, Index fallback) {
  if (!params.contains(name)) {
    if (fallback < 0) throw std::invalid_argument(std::string("parameter '") + name + "' is not set");
    return fallback;
  }
  return params[name].get<Index>();
}

void check_value(const std::string& name, const nlohmann::json& value) {
  if (name == "method") {
    if (!value.is_string() || std::find(kMethods.begin(), kMethods.end(), value.get<std::string>()) == kMethods.end()) {
      throw std::invalid_argument("method must be table, virtual-block or virtual-cyclic, got " + value.dump());
    }
    return;
  }
  const bool offset = name == "o" || name == "proc";
  if (!value.is_number_integer() || value.get<Index>() < (offset ? 0 : 1)) {
    throw std::invalid_argument("parameter '" + name + "' must be a " + (offset ? "non-negative" : "positive") +
                                " whole number, got " + value.dump());
  }
}

// One generation of processor `proc`'s local array by `method`, counting its work.
void generate(const std::string& method, const TwoLevelMapping& mapping, Index proc, std::vector<Index>& out,
              Work& work) {
  out.clear();
  if (method == "table") {
    compressed_local_array(mapping, proc, out, work);
  } else if (method == "virtual-block") {
    virtual_block_local_array(mapping, proc, out, work);
  } else {
    virtual_cyclic_local_array(mapping, proc, out, work);
  }
}

ExperimentResult run(const std::string& platform, const Params& params, Payload, const std::string& trace) {
  const TwoLevelMapping mapping{count(params, "n", -1), count(params, "s", -1), count(params, "o", 0),
                                count(params, "x", -1), count(params, "P", -1)};
  mapping.validate();
  const Index proc = count(params, "proc", 0), iterations = count(params, "iterations", 100);
  if (proc >= mapping.procs) throw std::invalid_argument("proc must be below P");
  const std::string method = params.contains("method") ? params["method"].get<std::string>() : "table";

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = 1;
  sim.trace_file = trace;
  const auto seconds = simulate(sim, [&](Transport& transport) {
    std::vector<Index> out;
    const double start = transport.now();
    for (Index i = 0; i < iterations; ++i) {
      Work work;
      generate(method, mapping, proc, out, work);
      transport.charge(work);
    }
    return nlohmann::json(transport.now() - start).dump();  // round-trip precision
  });
  return {{{"generate", std::stod(seconds.front())}}, 0, 0, std::nullopt, false};
}

}  // namespace

Experiment holes_experiment() {
  ExperimentSpec spec{"holes", {"P", "x", "s", "o", "n", "iterations", "proc", "method"}, {"P", "x", "s", "n"},
                      {"generate"}, check_value};
  return {spec, run};
}

}  // namespace redist::sim
