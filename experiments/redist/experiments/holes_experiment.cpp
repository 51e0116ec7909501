// The "holes" experiment (paper 003, Fig. 9): generating one processor's compressed local array of
// a two-level mapping, `iterations` times, on one host of the platform (the DEC Alpha 3000/400 in the
// paper). The work each method counts is priced by the platform; phase "generate" is the total.
#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <vector>

#include "redist/core/memory_budget.hpp"
#include "redist/holes/local_array.hpp"
#include "redist/holes/virtual_block.hpp"
#include "redist/holes/virtual_cyclic.hpp"
#include "redist/sim/engine.hpp"
#include "redist/experiments/experiments.hpp"

namespace redist::sim {
namespace {

// `redist holes` prints one processor's tables instead of timing them: no command runs this.
const ExperimentSpec& holes_schema() {
  static const ExperimentSpec spec{
      "holes",
      "Paper 003's generation of one processor's compressed local array of ALIGN A(i) WITH T(s·i + o), "
      "DISTRIBUTE T(CYCLIC(x)) ONTO P, `iterations` times, on one host",
      "",
      {{.name = "P", .meaning = "processors", .min = 1, .required = true},
       {.name = "x", .meaning = "distribution block size of CYCLIC(x)", .min = 1, .required = true},
       {.name = "s", .meaning = "alignment stride", .min = 1, .required = true},
       {.name = "o", .meaning = "alignment offset", .min = 0, .default_value = 0},
       {.name = "n", .meaning = "array elements N_A", .min = 1, .required = true},
       {.name = "iterations", .meaning = "generations timed", .min = 1, .default_value = 100},
       {.name = "proc",
        .meaning = "the processor generated, or all: one iteration generates every processor's array",
        .min = 0,
        .names = {"all"},
        .default_value = 0},
       {.name = "method",
        .meaning = "the table method, or a virtual-processor baseline",
        .names = {"table", "virtual-block", "virtual-cyclic"},
        .default_value = "table"}},
      {Phase::Generation},
      {"n_pb", "inv_gcd_px_s", "virtual_processors", "active_virtual_processors", "elements"},
      "Generate in seconds; quantities (summed over the processors generated): n_pb (N_pb^p), inv_gcd_px_s "
      "(1 / gcd(P·x, s)), virtual_processors, active_virtual_processors, elements"};
  return spec;
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
std::map<std::string, double> holes_model_quantities(const TwoLevelMapping& m, const std::vector<Index>& procs) {
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
std::vector<Index> processors(const ParameterValues& v, Index procs) {
  std::vector<Index> out;
  if (v.is_name("proc")) {
    for (Index p = 0; p < procs; ++p) out.push_back(p);
    return out;
  }
  const Index proc = v.integer("proc");
  if (proc >= procs) throw std::invalid_argument("proc must be below P");
  return {proc};
}

TwoLevelMapping holes_mapping(const ParameterValues& v) {
  const TwoLevelMapping mapping{v.integer("n"), v.integer("s"), v.integer("o"), v.integer("x"), v.integer("P")};
  mapping.validate();
  return mapping;
}

// What a run is refused for before anything runs (Experiment::check), and by the run itself: the
// mapping (sizes within 64 bits), proc below P, and memory: a generation holds the class table and
// the compression table (N_c = s / gcd(s, x) entries at most, 24 bytes each) and the local array
// (8 bytes an element, at most n), and proc = all the list of the P processors.
void check_holes(const Params& params, Payload) {
  const ParameterValues v(holes_schema(), params);
  const TwoLevelMapping mapping = holes_mapping(v);
  const bool all = v.is_name("proc");
  if (!all && v.integer("proc") >= mapping.procs) throw std::invalid_argument("proc must be below P");
  const auto classes = static_cast<std::uint64_t>(mapping.stride / std::gcd(mapping.stride, mapping.block));
  std::optional<std::uint64_t> need = bytes_product(classes, 48);
  const auto add = [&](std::optional<std::uint64_t> more) {
    std::uint64_t sum = 0;
    need = need && more && !__builtin_add_overflow(*need, *more, &sum) ? std::optional<std::uint64_t>(sum) : std::nullopt;
  };
  add(bytes_product(static_cast<std::uint64_t>(mapping.size), 8));
  if (all) add(bytes_product(static_cast<std::uint64_t>(mapping.procs), 8));
  require_memory(need,
                 "generating " + std::string(all ? "every processor's" : "one processor's") + " local array of n = " +
                     std::to_string(mapping.size) + " with s = " + std::to_string(mapping.stride) + ", x = " +
                     std::to_string(mapping.block) + (all ? ", P = " + std::to_string(mapping.procs) : ""),
                 "use a smaller n or s" + std::string(all ? ", or one processor (proc: 0)" : ""));
}

ExperimentResult run_holes(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  check_holes(params, payload);
  const ParameterValues v(holes_schema(), params);
  const TwoLevelMapping mapping = holes_mapping(v);
  const auto procs = processors(v, mapping.procs);
  const Index iterations = v.integer("iterations");
  const std::string method = v.text("method");

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
  result.quantities = holes_model_quantities(mapping, procs);
  return result;
}

}  // namespace

Experiment holes_experiment() { return {holes_schema(), run_holes, check_holes}; }

}  // namespace redist::sim
