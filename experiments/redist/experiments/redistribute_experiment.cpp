// The "redistribute" experiment: one verified 1-D block-cyclic redistribution on a platform.
#include <array>
#include <optional>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>
#include <string>
#include <vector>

#include "redist/reports/simulation_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/indexing/matrix_copy.hpp"
#include "redist/indexing/matrix_copy_request.hpp"
#include "redist/indexing/touched_bytes.hpp"
#include "redist/layout/scalapack_descriptor.hpp"
#include "redist/pdgemr2d/pdgemr2d_copy.hpp"
#include "redist/redistribute/verified_run.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/sim/engine.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/experiments/work_parameter.hpp"

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
      "The 1-D redistribution CYCLIC(r)/P → CYCLIC(s)/Q of N elements, or a 2-D copy between ScaLAPACK "
      "descriptors (rows, cols, grids, blocks, first processes, storage orders, submatrices)",
      "simulate",
      {{.name = "P", .meaning = "1-D: source processors", .min = 1, .required = true, .required_unless = "rows"},
       {.name = "Q", .meaning = "1-D: destination processors", .min = 1, .required = true, .required_unless = "rows"},
       {.name = "r", .meaning = "source block size (or a direction)", .min = 1},
       {.name = "s", .meaning = "destination block size (or a direction)", .min = 1},
       {.name = "k", .meaning = "the factor of directions kr->r and r->kr", .min = 1, .on_command_line = false},
       {.name = "direction",
        .meaning = "instead of r and s: kr->r is CYCLIC(k·r) → CYCLIC(r) and r->kr the reverse (with k and r), "
                   "block->cyclic is CYCLIC(ceil(N/P)) → CYCLIC(1) and cyclic->block the reverse",
        .names = {"kr->r", "r->kr", "block->cyclic", "cyclic->block"},
        .on_command_line = false},
       {.name = "N", .meaning = "1-D: array size in elements", .min = 1, .required = true, .required_unless = "rows"},
       {.name = "rows", .meaning = "2-D: matrix rows M (the 2-D form, instead of P, r, Q, s and N)", .min = 1},
       {.name = "cols", .meaning = "2-D: matrix columns N", .min = 1, .required = true, .required_with = "rows"},
       {.name = "src_grid", .meaning = "2-D: source process grid Pr x Pc (process (pr, pc) on rank pr·Pc + pc)",
        .min = 1, .pair = 'x', .required = true, .required_with = "rows"},
       {.name = "src_block", .meaning = "2-D: source blocks MB x NB", .min = 1, .pair = 'x', .required = true,
        .required_with = "rows"},
       {.name = "src_first", .meaning = "2-D: source process holding block (0, 0), RSRC,CSRC (absent: 0,0)", .min = 0,
        .pair = ','},
       {.name = "src_order", .meaning = "2-D: source local storage (absent: column-major, ScaLAPACK's)",
        .names = {"column-major", "row-major"}},
       {.name = "dst_grid", .meaning = "2-D: destination process grid Pr x Pc", .min = 1, .pair = 'x', .required = true,
        .required_with = "rows"},
       {.name = "dst_block", .meaning = "2-D: destination blocks MB x NB", .min = 1, .pair = 'x', .required = true,
        .required_with = "rows"},
       {.name = "dst_first", .meaning = "2-D: destination first process, RSRC,CSRC (absent: 0,0)", .min = 0, .pair = ','},
       {.name = "dst_order", .meaning = "2-D: destination local storage (absent: column-major)",
        .names = {"column-major", "row-major"}},
       {.name = "dst_matrix", .meaning = "2-D: B's rows x columns where they differ from A's", .min = 1, .pair = 'x'},
       {.name = "src_at", .meaning = "2-D: sub(A)'s first row and column IA,JA, from 1 (absent: 1,1)", .min = 1,
        .pair = ','},
       {.name = "dst_at", .meaning = "2-D: sub(B)'s first row and column IB,JB (absent: 1,1)", .min = 1, .pair = ','},
       {.name = "sub", .meaning = "2-D: the m x n submatrix copied (absent: the whole matrix); a submatrix runs "
                                  "redist's submatrix plan and the default exchange, as the ScaLAPACK drop-in does",
        .min = 1, .pair = 'x'},
       {.name = "method",
        .meaning = "2-D: who moves the matrix: redist (absent; its indexing, schedule and relabelling) or "
                   "ScaLAPACK's pdgemr2d as its REDIST source does it (its interval scans, its step loop of "
                   "blocking receive-then-send pairs, element-by-element packing into buffers allocated per call; "
                   "column-major storage)",
        .names = {"redist", "pdgemr2d"}},
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

// The parameters of each form of a run: 1-D (P, r, Q, s, N) or 2-D (ScaLAPACK descriptors).
constexpr std::array<const char*, 7> kOneDimensional = {"P", "Q", "r", "s", "k", "direction", "N"};
constexpr std::array<const char*, 15> kTwoDimensional = {
    "rows",      "cols",      "src_grid",   "src_block", "src_first", "src_order", "dst_grid", "dst_block",
    "dst_first", "dst_order", "dst_matrix", "src_at",    "dst_at",    "sub",       "method"};

// What a form's run must set, as the schema declares it: the 1-D form what `rows` waives
// (required_unless), the 2-D form `rows` and what it brings (required_with).
std::vector<std::string> required_of_form(bool two_dimensional) {
  std::vector<std::string> names;
  if (two_dimensional) names.emplace_back("rows");
  for (const ParameterSpec& p : redistribute_schema().parameters) {
    if (p.required && (two_dimensional ? p.required_with : p.required_unless) == "rows") names.push_back(p.name);
  }
  return names;
}

// "a, b and c".
std::string and_listed(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    out += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + names[k];
  }
  return out;
}

template <std::size_t n>
const char* first_given(const ParameterValues& v, const std::array<const char*, n>& names) {
  for (const char* name : names) {
    if (v.given(name)) return name;
  }
  return nullptr;
}

// Whether the run is 2-D; throws where it mixes the forms or lacks what its form needs.
bool two_dimensional(const ParameterValues& v) {
  const char* one = first_given(v, kOneDimensional);
  const char* two = first_given(v, kTwoDimensional);
  const std::string two_needs = and_listed(required_of_form(true));
  if (one != nullptr && two != nullptr) {
    throw std::invalid_argument(std::string("parameters ") + one + " and " + two + ": a run is 1-D (P, r, Q, s, N) " +
                                "or 2-D (" + two_needs + ", ...), not both");
  }
  const bool matrix = two != nullptr;
  const std::vector<std::string> needs = required_of_form(matrix);
  for (const std::string& name : needs) {
    if (!v.given(name)) {
      throw std::invalid_argument("parameter '" + name + "' is not set: " +
                                  (matrix ? "a 2-D run needs " + two_needs
                                          : "a 1-D run needs " + and_listed(needs) + " (a 2-D run " + two_needs + ")"));
    }
  }
  return matrix;
}

ScalapackDescriptor descriptor_of(const ParameterValues& v, const std::string& side, Index rows, Index cols) {
  ScalapackDescriptor d{.rows = rows, .cols = cols};
  std::tie(d.grid_rows, d.grid_cols) = v.pair(side + "_grid");
  std::tie(d.row_block, d.col_block) = v.pair(side + "_block");
  if (v.given(side + "_first")) std::tie(d.first_row, d.first_col) = v.pair(side + "_first");
  if (v.given(side + "_order") && v.text(side + "_order") == "row-major") d.order = StorageOrder::RowMajor;
  return d;
}

// The 2-D copy a run asks for, its absent fields as requested_matrix_copy reads them (as
// `redist-mpi run` does). Throws with the problem of a copy that cannot be.
MatrixCopy matrix_copy_of(const ParameterValues& v) {
  const Index rows = v.integer("rows"), cols = v.integer("cols");
  MatrixCopyRequest request{descriptor_of(v, "src", rows, cols), descriptor_of(v, "dst", rows, cols)};
  const auto optional_pair = [&v](const char* name) {
    return v.given(name) ? std::optional<std::pair<Index, Index>>(v.pair(name)) : std::nullopt;
  };
  request.dst_matrix = optional_pair("dst_matrix");
  request.src_at = optional_pair("src_at");
  request.dst_at = optional_pair("dst_at");
  request.sub = optional_pair("sub");
  return requested_matrix_copy(request);
}

bool runs_pdgemr2d(const ParameterValues& v) { return v.given("method") && v.text("method") == "pdgemr2d"; }

// What a submatrix copy runs is the drop-in's, and pdgemr2d is its own: the choices of redist's
// ways of moving whole matrices are refused by name.
void refuse_choices_of_whole_matrices(const ParameterValues& v) {
  const std::string what = runs_pdgemr2d(v) ? "pdgemr2d moves the matrix its own way"
                                            : "a submatrix copy (sub, src_at or dst_at) runs redist's submatrix plan and "
                                              "the default exchange, as the ScaLAPACK drop-in does";
  for (const char* name : {"indexing", "schedule", "relabel", "sources", "work"}) {
    if (v.given(name)) {
      throw std::invalid_argument(std::string("parameter '") + name + "': " + what +
                                  "; indexing, schedule, relabel, sources and work choose among redist's ways of "
                                  "moving whole matrices");
    }
  }
  if (runs_pdgemr2d(v) && v.integer("repeat") > 1) {
    throw std::invalid_argument("parameter 'repeat': pdgemr2d keeps no plan between calls (every call scans and "
                                "allocates again); repeat executes one of redist's plans");
  }
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
// A run's layouts: 1-D, or the descriptors of a 2-D copy (copy set; a submatrix moves as one).
struct RunShape {
  std::optional<MatrixCopy> copy;
  Layout source, dest;
  Index elements;  ///< of the larger array
  bool pdgemr2d = false;  ///< moved by ScaLAPACK's pdgemr2d
  bool submatrix() const { return copy && !copy->whole(); }
  /// Moved as a MatrixCopy (submatrix plan or pdgemr2d), not as a redistribution between layouts.
  bool matrix_copy() const { return submatrix() || pdgemr2d; }
};

RunShape run_shape(const ParameterValues& v) {
  if (std::optional<MatrixCopy> copy = redistribute_matrix_copy(v)) {
    const Index a = checked_mul(copy->from.rows, copy->from.cols, "A's rows x columns");
    const Index b = checked_mul(copy->to.rows, copy->to.cols, "B's rows x columns");
    const Layout source = scalapack_layout(copy->from), dest = scalapack_layout(copy->to);
    const bool pdgemr2d = runs_pdgemr2d(v);
    if (pdgemr2d && (copy->from.order == StorageOrder::RowMajor || copy->to.order == StorageOrder::RowMajor)) {
      throw std::invalid_argument("method pdgemr2d: ScaLAPACK stores its local matrices column-major (not src_order "
                                  "or dst_order row-major)");
    }
    return {std::move(copy), source, dest, std::max(a, b), pdgemr2d};
  }
  const Index P = v.integer("P"), Q = v.integer("Q"), N = v.integer("N");
  const auto [r, s] = block_sizes(v, P, Q, N);  // k x r may overflow
  return {std::nullopt, BlockCyclic(N, r, P), BlockCyclic(N, s, Q), N, false};
}

// What a run is refused for before anything is built: its form, the naive method's time, the
// array's bytes and, with real payload, its memory. Run before every run of a scenario, and by the
// run itself.
void check_redistribute(const Params& params, Payload payload) {
  const ParameterValues v(redistribute_schema(), params);
  const RunShape shape = run_shape(v);
  if (shape.matrix_copy()) {
    refuse_choices_of_whole_matrices(v);
  } else {
    refuse_endless_naive(v.text("indexing"), shape.elements);
  }
  const Index bytes = checked_mul(shape.elements, v.integer("elem_bytes"), "N x element size");
  if (!runs_phantom(payload, bytes)) {
    require_memory(bytes_product(static_cast<std::uint64_t>(bytes), 4),
                   "a redistribution of N = " + std::to_string(shape.elements) + " elements with real payload",
                   "use --phantom (payload: phantom in a scenario) to simulate message sizes without bytes");
  }
}

ExperimentResult run_redistribute(const std::string& platform, const Params& params, Payload payload,
                                  const std::string& trace) {
  check_redistribute(params, payload);
  const ParameterValues v(redistribute_schema(), params);
  const RunShape shape = run_shape(v);
  const Layout& source = shape.source;
  const Layout& dest = shape.dest;
  const Index P = source.processors(), Q = dest.processors();
  const Index elem_bytes = v.integer("elem_bytes");
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
  const Index bytes = checked_mul(shape.elements, elem_bytes, "N x element size");
  const auto executions = static_cast<int>(v.integer("repeat"));

  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(options.ranks.ranks_needed(P, Q));
  sim.rank_hosts = rank_hosts(v, sim.ranks);
  sim.phantom = runs_phantom(payload, bytes);
  sim.sources_shared = v.text("sources") == "shared";
  sim.trace_file = trace;
  sim.touched_bytes = shape.matrix_copy() ? touched_bytes(submatrix_copy(*shape.copy, options.ranks, 0), sim.ranks, elem_bytes)
                                          : touched_bytes(source, dest, options.ranks, sim.ranks, elem_bytes);
  // Real payload: every rank's source and destination arrays, and the send and receive copies of
  // what moves (at most the whole array), all in this one process; checked by check_redistribute.
  const auto reports = simulate(sim, [&](Transport& transport) {
    if (shape.pdgemr2d) {
      const MatrixCopyMove by_pdgemr2d = [elem_bytes](Transport& t, const SubmatrixCopy& copy,
                                                      std::span<const std::byte> a, std::span<std::byte> b) {
        return pdgemr2d_copy(t, copy, a, b, elem_bytes);
      };
      return rank_report_to_json(copy_and_verify(transport, *shape.copy, options.ranks, elem_bytes, by_pdgemr2d));
    }
    if (shape.submatrix()) {
      return rank_report_to_json(
          copy_and_verify(transport, *shape.copy, options.ranks, elem_bytes, redist_matrix_copy(elem_bytes, executions)));
    }
    return rank_report_to_json(redistribute_and_verify(transport, source, dest, options, executions));
  });
  const RunSummary summary = verified_summary(reports);
  std::map<std::string, double> quantities;
  if (relabel != RelabelMethod::None) quantities = kept_local_quantities(summary.bytes_kept, source, dest, elem_bytes);
  return {summary.phases, summary.messages, summary.bytes, summary.verified, sim.phantom, std::move(quantities)};
}

}  // namespace

Experiment redistribute_experiment() { return {redistribute_schema(), run_redistribute, check_redistribute}; }

const std::vector<std::string>& redistribute_matrix_parameters() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const char* name : kTwoDimensional) {
      if (std::string(name) != "method") out.emplace_back(name);
    }
    return out;
  }();
  return names;
}

std::optional<MatrixCopy> redistribute_matrix_copy(const ParameterValues& v) {
  if (!two_dimensional(v)) return std::nullopt;
  return matrix_copy_of(v);
}

Params redistribute_matrix_params(const MatrixCopy& copy) {
  const auto pair = [](Index a, char separator, Index b) { return std::to_string(a) + separator + std::to_string(b); };
  Params params = {{"rows", copy.from.rows}, {"cols", copy.from.cols}};
  for (const auto& [d, side] : {std::pair{&copy.from, "src"}, std::pair{&copy.to, "dst"}}) {
    params[std::string(side) + "_grid"] = pair(d->grid_rows, 'x', d->grid_cols);
    params[std::string(side) + "_block"] = pair(d->row_block, 'x', d->col_block);
    params[std::string(side) + "_first"] = pair(d->first_row, ',', d->first_col);
    if (d->order == StorageOrder::RowMajor) params[std::string(side) + "_order"] = "row-major";
  }
  if (copy.to.rows != copy.from.rows || copy.to.cols != copy.from.cols) {
    params["dst_matrix"] = pair(copy.to.rows, 'x', copy.to.cols);
  }
  if (!copy.whole()) {
    params["src_at"] = pair(copy.from_row0 + 1, ',', copy.from_col0 + 1);
    params["dst_at"] = pair(copy.to_row0 + 1, ',', copy.to_col0 + 1);
    params["sub"] = pair(copy.rows, 'x', copy.cols);
  }
  return params;
}

}  // namespace redist::sim
