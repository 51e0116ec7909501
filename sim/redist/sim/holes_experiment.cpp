// The "holes" experiment (paper 003, Fig. 9): generating one processor's compressed local array of
// a two-level mapping, `iterations` times, on one host of the platform (the DEC Alpha 3000/400 in the
// paper). The work each method counts is priced by the platform; phase "generate" is the total.
#include <numeric>
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
  if (name == "proc" && value == "all") return;
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

// The quantities paper 003 says the three methods' times follow (§4), summed over the processors
// generated: N^p_pb = N_c / gcd(N_c, P) with N_c = s / gcd(s, x) for the table method (the same on
// every processor); 1 / gcd(P·x, s), and the active virtual processors it counts, for virtual-cyclic;
// the virtual processors (template blocks) for virtual-block; and the elements generated.
std::map<std::string, double> model_quantities(const TwoLevelMapping& m, const std::vector<Index>& procs) {
  const Index classes = m.stride / std::gcd(m.stride, m.block);
  const Index blocks = ceil_div(m.template_cell(m.size - 1) + 1, m.block);
  const Index g = std::gcd(m.procs * m.block, m.stride);
  double virtual_processors = 0, active = 0, elements = 0;
  for (Index p : procs) {
    virtual_processors += static_cast<double>(blocks / m.procs + (p < blocks % m.procs ? 1 : 0));
    // Virtual processors v in [p·x, p·x + x) with v ≡ o (mod g).
    const Index first = p * m.block - floor_mod(m.offset, g), last = first + m.block - 1;
    active += static_cast<double>(floor_div(last, g) - floor_div(first - 1, g));
    std::vector<Index> out;
    Work ignored;
    compressed_local_array(m, p, out, ignored);
    elements += static_cast<double>(out.size());
  }
  return {{"n_pb", static_cast<double>(classes / std::gcd(classes, m.procs))},
          {"inv_gcd_px_s", 1.0 / static_cast<double>(g)},
          {"virtual_processors", virtual_processors},
          {"active_virtual_processors", active},
          {"elements", elements}};
}

// The processors whose arrays one iteration generates: `proc`, or every one for proc = all.
std::vector<Index> processors(const Params& params, Index procs) {
  std::vector<Index> out;
  if (params.contains("proc") && params["proc"] == "all") {
    for (Index p = 0; p < procs; ++p) out.push_back(p);
    return out;
  }
  const Index proc = count(params, "proc", 0);
  if (proc >= procs) throw std::invalid_argument("proc must be below P");
  return {proc};
}

ExperimentResult run(const std::string& platform, const Params& params, Payload, const std::string& trace) {
  const TwoLevelMapping mapping{count(params, "n", -1), count(params, "s", -1), count(params, "o", 0),
                                count(params, "x", -1), count(params, "P", -1)};
  mapping.validate();
  const auto procs = processors(params, mapping.procs);
  const Index iterations = count(params, "iterations", 100);
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
      for (Index proc : procs) generate(method, mapping, proc, out, work);
      transport.charge(work);
    }
    return nlohmann::json(transport.now() - start).dump();  // round-trip precision
  });
  ExperimentResult result;
  result.phases.total = std::stod(seconds.front());
  result.quantities = model_quantities(mapping, procs);
  return result;
}

}  // namespace

Experiment holes_experiment() {
  ExperimentSpec spec{"holes", {"P", "x", "s", "o", "n", "iterations", "proc", "method"}, {"P", "x", "s", "n"},
                      {Phase::Generation}, check_value, {"n_pb", "inv_gcd_px_s", "virtual_processors", "active_virtual_processors", "elements"}};
  return {spec, run};
}

}  // namespace redist::sim
