// The "sra" experiment (paper 002, table 1): one redistribution of an n×n symmetric matrix
// BC(x,*) -> BC(y,*) (or column-wise) over P processors by TR or SRA, on a platform. Phases as the
// paper reports them: comp (indexing, packing, unpacking, SRA's local rebuild), comm and total.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "redist/reports/simulation_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/sim/engine.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/experiments/work_parameter.hpp"
#include "redist/symmetric/symmetric_counts.hpp"
#include "redist/symmetric/symmetric_redistribute.hpp"

namespace redist::sim {
namespace {

const ExperimentSpec& sra_schema() {
  static const ExperimentSpec spec{
      "sra",
      "Paper 002's redistribution of a symmetric n×n matrix BC(x,*) → BC(y,*) (or column-wise) by TR or SRA",
      "sra",
      {{.name = "n", .meaning = "matrix order (n × n), or rows_per_proc instead", .min = 1},
       {.name = "rows_per_proc",
        .meaning = "n = rows_per_proc × P, as paper 002's table 1 grows n with P",
        .min = 1,
        .on_command_line = false},  // `redist sra` reports the n it ran
       {.name = "P", .meaning = "processors", .min = 1, .required = true},
       {.name = "x", .meaning = "source block size: block = ceil(n/P), cyclic = 1", .min = 1, .names = {"block", "cyclic"}, .required = true},
       {.name = "y", .meaning = "destination block size: block = ceil(n/P), cyclic = 1", .min = 1, .names = {"block", "cyclic"}, .required = true},
       {.name = "method", .meaning = "tr (traditional) or sra", .names = names_of(symmetric_method_names()), .default_value = "sra"},
       {.name = "orientation",
        .meaning = "row: BC(x,*) → BC(y,*); column: BC(*,x) → BC(*,y)",
        .names = names_of(orientation_names()),
        .default_value = "row"},
       {.name = "elem_bytes", .meaning = "bytes per element (4: single precision)", .min = 1, .default_value = 4},
       work_parameter("also the owner of every element packed and unpacked, as paper 002's listing computes it: "
                      "two integer divisions per element")},
      {Phase::Indexing, Phase::Packing, Phase::Communication, Phase::Unpacking, Phase::Computation, Phase::Total},
      {"elements_sent", "D", "sra_avoided_share"},
      "Seconds, each the maximum over ranks; comp is per rank index + pack + unpack (SRA's local rebuild "
      "included); quantities: elements_sent (between distinct ranks), D (the most elements one processor "
      "sends: D of the paper's eq. 2), sra_avoided_share (share of TR's elements SRA does not send, Lemma 3)"};
  return spec;
}

// A block size: a positive whole number, "block" (ceil(n/P)) or "cyclic" (1).
Index block_size(const ParameterValues& v, const std::string& name, Index n, Index P) {
  if (!v.is_name(name)) return v.integer(name);
  return v.text(name) == "block" ? ceil_div(n, P) : 1;
}

// n directly, or rows_per_proc × P (table 1 grows n with P: 500 rows per processor).
Index matrix_order(const ParameterValues& v, Index P) {
  if (v.given("n") == v.given("rows_per_proc")) {
    throw std::invalid_argument("set exactly one of the parameters 'n' and 'rows_per_proc'");
  }
  return v.given("n") ? v.integer("n") : checked_mul(v.integer("rows_per_proc"), P, "rows_per_proc x P");
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

// What a run is refused for before anything is built: its sizes and, with real payload, its memory.
// Run before every run of a scenario (Experiment::check), and by the run itself, which runs the
// problem it returns.
SymmetricProblem checked_sra_problem(const Params& params, Payload payload) {
  const ParameterValues v(sra_schema(), params);
  const Index P = v.integer("P"), n = matrix_order(v, P);
  const SymmetricProblem problem{n, P, block_size(v, "x", n, P), block_size(v, "y", n, P),
                                 orientation_from_name(v.text("orientation"))};
  problem.validate();
  check_size(problem);
  const Index bytes = checked_mul(checked_mul(n, n, "n x n"), v.integer("elem_bytes"), "matrix bytes");
  if (!runs_phantom(payload, bytes)) {
    require_memory(bytes_product(static_cast<std::uint64_t>(bytes), 4),
                   "a symmetric redistribution of n = " + std::to_string(n) + " with real payload",
                   "use --phantom (payload: phantom in a scenario) to simulate message sizes without bytes");
  }
  return problem;
}

void check_sra(const Params& params, Payload payload) { checked_sra_problem(params, payload); }

ExperimentResult run_sra(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  const SymmetricProblem problem = checked_sra_problem(params, payload);
  const ParameterValues v(sra_schema(), params);
  const Index P = problem.procs, n = problem.n;
  const SymmetricMethod method = symmetric_method_from_name(v.text("method"));
  const Index elem_bytes = v.integer("elem_bytes");
  const SymmetricWork work = paper_work(v) ? SymmetricWork::PaperListing : SymmetricWork::Redist;
  const Index bytes = checked_mul(checked_mul(n, n, "n x n"), elem_bytes, "matrix bytes");

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(P);
  sim.phantom = runs_phantom(payload, bytes);
  sim.trace_file = trace;
  // Real payload: source and destination matrices of every rank and the bytes in flight (their
  // memory checked by check_sra).
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

Experiment sra_experiment() { return {sra_schema(), run_sra, check_sra}; }

}  // namespace redist::sim
