// The "sra" experiment (paper 002, table 1): one redistribution of an n×n symmetric matrix
// BC(x,*) -> BC(y,*) (or column-wise) over P processors by TR or SRA, on a platform. Phases as the
// paper reports them: comp (indexing, packing, unpacking, SRA's local rebuild), comm and total.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "redist/analysis/simulation_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/experiments.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/sim/work_accounting.hpp"
#include "redist/symmetric/symmetric_counts.hpp"
#include "redist/symmetric/symmetric_redistribute.hpp"

namespace redist::sim {
namespace {

const std::vector<std::string> kCounts = {"n", "rows_per_proc", "P", "elem_bytes"};

Index count(const Params& params, const char* name) {
  if (!params.contains(name)) throw std::invalid_argument(std::string("parameter '") + name + "' is not set");
  const auto& v = params[name];
  if (!v.is_number_integer() || v.get<Index>() <= 0) {
    throw std::invalid_argument(std::string("parameter '") + name + "' must be a positive whole number, got " + v.dump());
  }
  return v.get<Index>();
}

// A block size: a positive whole number, "block" (ceil(n/P)) or "cyclic" (1).
Index block_size(const nlohmann::json& value, const std::string& name, Index n, Index P) {
  if (value.is_string() && value.get<std::string>() == "block") return ceil_div(n, P);
  if (value.is_string() && value.get<std::string>() == "cyclic") return 1;
  if (value.is_number_integer() && value.get<Index>() > 0) return value.get<Index>();
  throw std::invalid_argument("parameter '" + name + "' must be a positive whole number, block or cyclic, got " +
                              value.dump());
}

void check_value(const std::string& name, const nlohmann::json& value) {
  if (name == kWorkParameter) return check_work(value);
  if (std::find(kCounts.begin(), kCounts.end(), name) != kCounts.end()) {
    Params single = Params::object();
    single[name] = value;
    count(single, name.c_str());
  } else if (name == "x" || name == "y") {
    block_size(value, name, 1, 1);
  } else if (!value.is_string()) {
    throw std::invalid_argument("parameter '" + name + "' must be a name, got " + value.dump());
  } else if (name == "method") {
    symmetric_method_from_name(value.get<std::string>());
  } else if (name == "orientation") {
    orientation_from_name(value.get<std::string>());
  }
}

std::string text(const Params& params, const char* name, const char* fallback) {
  return params.contains(name) ? params[name].get<std::string>() : fallback;
}

// n directly, or rows_per_proc × P (table 1 grows n with P: 500 rows per processor).
Index matrix_order(const Params& params, Index P) {
  if (params.contains("n") == params.contains("rows_per_proc")) {
    throw std::invalid_argument("set exactly one of the parameters 'n' and 'rows_per_proc'");
  }
  return params.contains("n") ? count(params, "n") : checked_mul(count(params, "rows_per_proc"), P, "rows_per_proc x P");
}

// The plans walk lists of line and position intervals: per rank and peer up to ceil(n/x) position
// pieces, per rank its local lines. Beyond about 2^30 entries a run would take minutes or exhaust
// memory, so it is refused with a reason instead.
void check_size(const SymmetricProblem& problem) {
  const double P = static_cast<double>(problem.procs), n = static_cast<double>(problem.n);
  const double entries = P * P * (std::ceil(n / static_cast<double>(problem.x)) + 1) + P * n;
  if (entries > 0x1p30) {
    throw std::invalid_argument("n = " + std::to_string(problem.n) + " over P = " + std::to_string(problem.procs) +
                                " with x = " + std::to_string(problem.x) +
                                " is too large to simulate (P·P·n/x + P·n above 2^30)");
  }
}

// Elements sent between distinct ranks, D of the paper's cost model (eq. 2: the largest total a
// source processor sends, in elements), and the share of TR's elements SRA leaves out (Lemma 3: 1/P
// when P·x divides n), both in closed form.
std::map<std::string, double> lemma3_quantities(const SymmetricProblem& problem, SymmetricMethod method) {
  Index traditional = 0, sent = 0, avoided = 0, largest = 0;
  for (Index p = 0; p < problem.procs; ++p) {
    Index from_p = 0;
    for (Index q = 0; q < problem.procs; ++q) {
      traditional += message_elements(problem, SymmetricMethod::Traditional, p, q);
      from_p += message_elements(problem, method, p, q);
      avoided += sra_avoided_elements(problem, p, q);
    }
    sent += from_p;
    largest = std::max(largest, from_p);
  }
  return {{"elements_sent", static_cast<double>(sent)},
          {"D", static_cast<double>(largest)},
          {"sra_avoided_share", traditional > 0 ? static_cast<double>(avoided) / static_cast<double>(traditional) : 0.0}};
}

ExperimentResult run(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  for (const char* name : {"x", "y"}) {
    if (!params.contains(name)) throw std::invalid_argument(std::string("parameter '") + name + "' is not set");
  }
  const Index P = count(params, "P"), n = matrix_order(params, P);
  const SymmetricProblem problem{n, P, block_size(params["x"], "x", n, P), block_size(params["y"], "y", n, P),
                                 orientation_from_name(text(params, "orientation", "row"))};
  problem.validate();
  check_size(problem);
  const SymmetricMethod method = symmetric_method_from_name(text(params, "method", "sra"));
  const Index elem_bytes = params.contains("elem_bytes") ? count(params, "elem_bytes") : 4;
  const SymmetricWork work = paper_work(params) ? SymmetricWork::PaperListing : SymmetricWork::Redist;
  const Index bytes = checked_mul(checked_mul(n, n, "n x n"), elem_bytes, "matrix bytes");

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(P);
  sim.phantom = runs_phantom(payload, bytes);
  sim.trace_file = trace;
  // Real payload: source and destination matrices of every rank and the bytes in flight.
  if (!sim.phantom) {
    require_memory(bytes_product(static_cast<std::uint64_t>(bytes), 4),
                   "a symmetric redistribution of n = " + std::to_string(n) + " with real payload",
                   "use --phantom (payload: phantom in a scenario) to simulate message sizes without bytes");
  }
  const auto reports = simulate(sim, [&](Transport& transport) {
    return rank_report_to_json(redistribute_symmetric_and_verify(transport, problem, method, elem_bytes, work));
  });
  const RunSummary summary = verified_summary(reports);
  return {summary.phases,
          summary.messages,
          summary.bytes,
          summary.verified,
          sim.phantom,
          lemma3_quantities(problem, method)};
}

}  // namespace

Experiment sra_experiment() {
  // n or rows_per_proc (exactly one) is checked when a run starts.
  ExperimentSpec spec{"sra",
                      {"n", "rows_per_proc", "P", "x", "y", "method", "orientation", "elem_bytes", kWorkParameter},
                      {"P", "x", "y"},
                      {Phase::Indexing, Phase::Packing, Phase::Communication, Phase::Unpacking, Phase::Computation,
                       Phase::Total},
                      check_value,
                      {"elements_sent", "D", "sra_avoided_share"}};
  return {spec, run};
}

}  // namespace redist::sim
