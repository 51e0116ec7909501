// redist-mpi: redistributions on real data under mpirun (docs/ARCHITECTURE.md §8).
//
//   mpirun -np 4 redist-mpi run -P 2 -r 3 -Q 4 -s 5 -N 100000 --indexing krr --schedule greedy --json
//   mpirun -np 4 redist-mpi run --rows 1000 --cols 800 --src-grid 2x2 --src-block 64x64
//                               --dst-grid 1x4 --dst-block 1x100 --reference pdgemr2d --json
//   mpirun -np 4 redist-mpi run --rows 1000 --cols 800 --src-grid 2x2 --src-block 64x64 --dst-grid 1x4
//                               --dst-block 1x100 --dst-matrix 600x500 --src-at 101,51 --dst-at 7,9
//                               --sub 400x300 --reference pdgemr2d --json
//   mpirun -np 2 redist-mpi pingpong --max-bytes 16777216 --json
//   mpirun -np 2 redist-mpi exchange --bytes 4194304 --json
//   mpirun -np 6 redist-mpi sharedcopy --json
//
// Bad input gives one "redist-mpi: error: ..." line on every rank and exit status 1, after the
// ranks have agreed on it; an MPI failure during an exchange aborts the whole job.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <system_error>
#include <limits>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "redist/core/int_math.hpp"
#include "redist/os/error_line.hpp"
#include "argument_agreement.hpp"
#include "layout_options.hpp"
#include "measurement_options.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/core/name_table.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/mpi/agreement.hpp"
#include "redist/mpi/verified_mpi_run.hpp"
#include "redist/predict/auto_choice.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/predict/prediction.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/experiments/experiment_schema.hpp"
#include "redist/reports/redistribution_json.hpp"
#include "redist/measurements/memory_check.hpp"
#include "redist/os/standard_output.hpp"
#include "redist/command_line/strict_numbers.hpp"

namespace redist::mpi::cli {
namespace {

struct RunOptions {
  LayoutOptions layout;
  Index elem_bytes = 8;
  std::string indexing = kDefaultName, schedule = kDefaultName, reference;
  std::string relabel = "none";
  std::string model;  // machine model file, for auto
  int repeat = 1;
  bool json = false;
};

// The layouts' own fields of the run JSON: the 2-D copy's descriptors (and submatrices), or the
// 1-D block sizes.
nlohmann::ordered_json layouts_json(const LayoutOptions& layout) {
  if (!layout.two_dimensional()) return {{"r", layout.r}, {"s", layout.s}};
  return matrix_copy_json(layout.matrix_copy());
}

// The project's version, the SimGrid version the project was built with (the simulator is `redist`;
// redist-mpi does not load SimGrid) and the MPI library's own description. MPI allows
// MPI_Get_library_version before MPI_Init, so that `redist-mpi --version` needs no mpirun.
std::string version_text() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string mpi(library, static_cast<std::size_t>(length));
  while (!mpi.empty() && (mpi.back() == '\n' || mpi.back() == '\0' || mpi.back() == ' ')) mpi.pop_back();
  return std::string("redist-mpi ") + REDIST_VERSION + "\nSimGrid " + REDIST_SIMGRID_VERSION + " (built with)\nMPI " + mpi;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Before anything is allocated or moved: the memory every node's ranks will need (collective).
void check_memory(const RunOptions& o, const Layout& source, const Layout& dest, const Options& options) {
  measurements::agree_on_memory(measurements::rank_peak_bytes(source, dest, options.ranks, world_rank(), o.elem_bytes, !o.reference.empty()));
}

// Relabelling (as `redist simulate --relabel`) only where destination processors share the
// sources' ranks, and not for pdgemr2d, whose grids are placed by number.
void check_relabel(const RunOptions& o) {
  if (o.relabel == "none") return;
  if (o.layout.placement != "shared") {
    throw std::invalid_argument("--relabel " + o.relabel +
                                " places destination processors on the sources' ranks: it needs --placement shared");
  }
  if (!o.reference.empty()) throw std::invalid_argument("--relabel cannot be combined with --reference pdgemr2d");
}

// --model, read by every rank; the ranks agree on whether it could be (collective). Only a regular
// file is read: a device or a pipe would be read without end.
std::shared_ptr<const MachineModel> agreed_machine_model(const std::string& path) {
  std::shared_ptr<const MachineModel> model;
  std::string problem;
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) {
    problem = "--model " + path + ": no such file";
  } else if (!std::filesystem::is_regular_file(status)) {
    problem = "--model " + path + ": not a regular file (a machine model is the .model.json file `redist calibrate` writes)";
  } else {
    try {
      model = std::make_shared<const MachineModel>(load_machine_model(path));
    } catch (const std::bad_alloc&) {
      problem = "--model " + path + ": too large to read into memory (a machine model is a few KiB of JSON)";
    } catch (const std::exception& e) {
      problem = std::string("--model: ") + e.what();
    }
  }
  agree_on_problems(MPI_COMM_WORLD, problem);
  return model;
}

// The options asked for, "auto" resolved on the machine model (collective: every rank predicts).
Options chosen_options(const RunOptions& o, const Layout& source, const Layout& dest) {
  check_relabel(o);
  Options options{.elem_bytes = o.elem_bytes, .indexing = o.indexing, .schedule = o.schedule,
                  .ranks = o.layout.ranks(source.processors()), .relabel = o.relabel};
  if (!o.model.empty()) options.model = agreed_machine_model(o.model);
  return choose(MPI_COMM_WORLD, source, dest, options);
}

// What relabelling kept local, as `redist simulate --relabel` reports it: the run's bytes, and those
// of the same pair numbered as is (destination processor q on rank q).
nlohmann::ordered_json relabel_json(const Options& chosen, const Layout& source, const Layout& dest, Index kept) {
  const Index unrelabelled = kept_without_relabelling(relabelling_volumes(source, dest));
  return {{"method", chosen.relabel}, {"bytes_kept", kept}, {"bytes_kept_unrelabelled", unrelabelled * chosen.elem_bytes}};
}

std::vector<std::string> with_auto(std::vector<std::string> names) {
  names.emplace_back(kAutoName);
  return names;
}

int started_ranks() {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

// Every rank sees the same numbers: all stop here together.
void require_ranks_started(const RunOptions& o, const Layout& source, const Layout& dest) {
  const Index needed = o.layout.ranks(source.processors()).ranks_needed(source.processors(), dest.processors());
  if (needed != started_ranks()) {
    throw std::invalid_argument("mpirun started " + std::to_string(started_ranks()) + " ranks, the layouts use " +
                                std::to_string(needed) + " (start exactly that many)");
  }
}

// 0 when the run verified (and, with --reference, pdgemr2d verified and left the same bytes), else 2.
int exit_status(const MpiRunSummary& summary, const std::optional<ReferenceComparison>& reference) {
  return summary.verified && (!reference || (reference->identical && reference->verified)) ? 0 : 2;
}

// Rank 0's answer: the run's JSON with pdgemr2d's comparison last, or as text under `heading`.
int print_result(const RunOptions& o, nlohmann::ordered_json json, const MpiRunSummary& summary,
                 const std::optional<ReferenceComparison>& reference, const std::string& heading) {
  if (reference) {
    json["pdgemr2d"] = {{"seconds", reference->pdgemr2d_seconds}, {"redist_seconds", reference->redist_seconds},
                        {"identical", reference->identical}, {"verified", reference->verified}};
  }
  if (o.json) {
    std::cout << json.dump() << std::endl;
  } else {
    std::cout << heading << "\n";
    for (const auto& [name, value] : json["phases"].items()) std::cout << name << "\t" << value << "\n";
    std::cout << "messages " << summary.messages << ", bytes " << summary.bytes << ", verified "
              << (summary.verified ? "yes" : "NO") << "\n";
    if (reference) {
      std::cout << "pdgemr2d " << reference->pdgemr2d_seconds << " s, redist " << reference->redist_seconds
                << " s, identical " << (reference->identical ? "yes" : "NO") << ", verified "
                << (reference->verified ? "yes" : "NO") << "\n";
    }
  }
  return exit_status(summary, reference);
}

// A submatrix copy runs what the ScaLAPACK drop-in runs (its submatrix plan and the default
// exchange), as `redist simulate` does: the options that choose among redist's ways of moving whole
// matrices are refused by name, as the simulator refuses its parameters.
void refuse_choices_of_whole_matrices(const RunOptions& o) {
  for (const auto& [given, option] :
       {std::pair{o.indexing != kDefaultName, "--indexing"}, std::pair{o.schedule != kDefaultName, "--schedule"},
        std::pair{o.relabel != "none", "--relabel"}, std::pair{!o.model.empty(), "--model"}}) {
    if (given) {
      throw std::invalid_argument(std::string(option) +
                                  ": a submatrix copy (--sub, --src-at, --dst-at or --dst-matrix) runs redist's submatrix "
                                  "plan and the default exchange, as the ScaLAPACK drop-in does; --indexing, --schedule, "
                                  "--relabel and --model choose among redist's ways of moving whole matrices");
    }
  }
}

// sub(A) into sub(B) on MPI_COMM_WORLD by the drop-in's submatrix plan, verified, and with
// --reference pdgemr2d the same copy by ScaLAPACK's pdgemr2d.
int run_submatrix_copy(const RunOptions& o, const MatrixCopy& copy) {
  refuse_choices_of_whole_matrices(o);
  const Layout source = scalapack_layout(copy.from), dest = scalapack_layout(copy.to);
  require_ranks_started(o, source, dest);
  const Options options{.elem_bytes = o.elem_bytes, .ranks = o.layout.ranks(source.processors())};
  check_memory(o, source, dest, options);
  // The reference first (compare_with_pdgemr2d: pdgemr2d measured before any redist call).
  std::optional<ReferenceComparison> reference;
  if (!o.reference.empty()) reference = compare_copy_with_pdgemr2d(copy, options.ranks, o.repeat);
  const MpiRunSummary summary = verified_matrix_copy(MPI_COMM_WORLD, copy, options.ranks, o.elem_bytes, o.repeat);
  if (world_rank() != 0) return exit_status(summary, reference);
  // Named as `redist simulate` names a submatrix run's method: the drop-in's plan, async's exchange.
  auto json = redistribution_json({"mpi", started_ranks(), source.processors(), dest.processors(),
                                   matrix_copy_json(copy), source.size(), summary.phases, summary.messages,
                                   summary.bytes, summary.verified, o.elem_bytes, "submatrix", "async",
                                   o.layout.placement, false});
  return print_result(o, std::move(json), summary, reference,
                      matrix_copy_text(copy) + "\nwall-clock seconds, maximum over " + std::to_string(started_ranks()) +
                          " ranks (redist's submatrix plan, the default exchange)");
}

int run(const RunOptions& o) {
  if (o.layout.two_dimensional()) {
    if (const MatrixCopy copy = o.layout.matrix_copy(); !copy.whole()) return run_submatrix_copy(o, copy);
  }
  const auto [source, dest] = o.layout.layouts();
  const int ranks = started_ranks();
  require_ranks_started(o, source, dest);
  if (!o.reference.empty() && !o.layout.two_dimensional()) {
    throw std::invalid_argument("--reference pdgemr2d needs 2-D layouts (a 1-D array is a --rows 1 matrix)");
  }
  if (!o.reference.empty() && (o.layout.src_order != "column-major" || o.layout.dst_order != "column-major")) {
    throw std::invalid_argument("--reference pdgemr2d needs column-major storage, ScaLAPACK's (not --src-order or "
                                "--dst-order row-major)");
  }
  const Options options = chosen_options(o, source, dest);
  check_memory(o, source, dest, options);
  std::optional<ReferenceComparison> reference;  // first, as in run_submatrix_copy
  if (!o.reference.empty()) {
    const MatrixCopy copy = o.layout.matrix_copy();
    reference = compare_with_pdgemr2d(copy.from, copy.to, options, o.repeat);
  }
  const auto summary = verified_redistribute(MPI_COMM_WORLD, source, dest, options, o.repeat);
  if (world_rank() != 0) return exit_status(summary, reference);

  const RedistributeOptions resolved = resolve_defaults(options);
  auto json = redistribution_json({"mpi", ranks, source.processors(), dest.processors(), layouts_json(o.layout),
                                   source.size(), summary.phases, summary.messages, summary.bytes, summary.verified,
                                   o.elem_bytes, resolved.indexing, resolved.schedule, o.layout.placement, false});
  if (o.relabel != "none") json["relabel"] = relabel_json(resolved, source, dest, summary.bytes_kept);
  if (has_auto_choice({.indexing = o.indexing, .schedule = o.schedule, .relabel = o.relabel})) {
    json["auto"] = {{"model", o.model}, {"indexing", resolved.indexing}, {"schedule", resolved.schedule},
                    {"relabel", resolved.relabel}};
  }
  return print_result(o, std::move(json), summary, reference,
                      "wall-clock seconds, maximum over " + std::to_string(ranks) + " ranks (indexing " +
                          resolved.indexing + ", schedule " + resolved.schedule + ")");
}

int main_with_mpi(int argc, char** argv) {
  CLI::App app{"redist-mpi: redistributions on real data under mpirun"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text, "print the versions of redist-mpi, SimGrid and MPI, and exit");
  RunOptions run_options;
  auto* run_app = app.add_subcommand("run", "Redistribute generated data, verify it, print the phase times");
  run_options.layout.add_to(*run_app);
  run_app->add_option("--elem-bytes", run_options.elem_bytes, "bytes per element")->capture_default_str();
  run_app->add_option("--indexing", run_options.indexing,
                      joined_names(indexing_methods()) + ", default or auto (--model)")
      ->capture_default_str();
  run_app->add_option("--schedule", run_options.schedule, schedule_names().known() + ", default or auto (--model)")
      ->capture_default_str();
  run_app->add_option("--repeat", run_options.repeat, "repetitions; the fastest is reported")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  run_app->add_option("--relabel", run_options.relabel,
                      "destination processors on the ranks holding most of their data: none, exact, greedy or auto "
                      "(--model) (with --placement shared)")
      ->check(CLI::IsMember(with_auto(names_of(relabel_method_names()))))
      ->capture_default_str();
  run_app->add_option("--reference", run_options.reference, "also run ScaLAPACK's pdgemr2d and compare")
      ->check(CLI::IsMember({"pdgemr2d"}));
  run_app->add_option("--model", run_options.model,
                      "machine model `auto` predicts on (the .model.json `redist calibrate` writes, or `redist explain "
                      "--write-model`)")
      ->check(CLI::ExistingFile);
  run_app->add_flag("--json", run_options.json, "print the phase JSON of `redist simulate`");
  measurements::LocalWorkOptions local_work_options;
  auto* local_work_app =
      app.add_subcommand("localwork", "Time plans, packing and unpacking against their counted work (calibration)");
  add_options(*local_work_app, local_work_options);
  measurements::PingPongOptions pingpong_options;
  auto* pingpong_app = app.add_subcommand("pingpong", "One-way message times between ranks 0 and 1 (calibration)");
  add_options(*pingpong_app, pingpong_options);
  measurements::ExchangeOptions exchange_options;
  auto* exchange_app = app.add_subcommand("exchange", "All ranks sending to all at once: bytes moved per second (calibration)");
  add_options(*exchange_app, exchange_options);
  measurements::SharedCopyOptions shared_copy_options;
  auto* shared_copy_app =
      app.add_subcommand("sharedcopy", "All ranks packing at once: the node's time, first start to last end (calibration)");
  add_options(*shared_copy_app, shared_copy_options);
  run_app->add_option_function<std::uint64_t>(
             "--max-memory", [](const std::uint64_t& bytes) { set_memory_limit(bytes); },
             "bytes the ranks of one node may use together (default: MemAvailable of /proc/meminfo)")
      ->check(CLI::Range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max()));
  std::string problem;
  std::exception_ptr help;
  redist::command_line::read_numbers_strictly(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success&) {  // --help, --version: the ranks must agree on it too
    help = std::current_exception();
  } catch (const CLI::ParseError& e) {
    problem = e.what();
  }
  agree_on_arguments(problem, help ? "--help" : normalised_arguments(app));
  if (help) {
    try {
      std::rethrow_exception(help);
    } catch (const CLI::Success& e) {
      return world_rank() == 0 ? app.exit(e) : 0;
    }
  }
  if (run_app->parsed()) return run(run_options);
  if (local_work_app->parsed()) return measurements::run_local_work(local_work_options);
  if (exchange_app->parsed()) return measurements::run_exchange(exchange_options);
  if (shared_copy_app->parsed()) return measurements::run_shared_copy(shared_copy_options);
  if (pingpong_options.busy) return measurements::run_busy_pingpong(pingpong_options);
  if (pingpong_options.shared_core > 0) return measurements::run_shared_core_pingpong(pingpong_options);
  return measurements::run_pingpong(pingpong_options);
}

}  // namespace
}  // namespace redist::mpi::cli

namespace {

// One write per line, so that mpirun does not interleave the ranks' lines.
void print_error(const char* what) {
  const std::string line = "redist-mpi: error: " + redist::os::as_error_line(what) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

// Before MPI_Init the rank is known only from the launcher's environment (Open MPI, or PMI).
bool first_or_only_process() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"}) {
    if (const char* rank = std::getenv(name)) return std::strcmp(rank, "0") == 0;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {  // without MPI_Init: no mpirun needed
    if (first_or_only_process()) std::cout << redist::mpi::cli::version_text() << '\n';
    return 0;
  }
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    status = redist::mpi::cli::main_with_mpi(argc, argv);
  } catch (const std::invalid_argument& e) {  // agreed on by every rank (naming the rank at fault): all
    int rank = 0;                             // leave together, rank 0 says why
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) print_error(e.what());
    status = 1;
  } catch (const redist::OverflowError& e) {  // from the agreed global sizes (a cycle, a block count):
    int rank = 0;                               // every rank computes the same, and leaves with it
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) print_error(e.what());
    status = 1;
  } catch (const std::exception& e) {  // seen by this rank alone: the others may be waiting for it
    print_error(e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  // Rank 0's answer is the result: lost on a full device, it is an error, not a status of 0.
  if (const std::string problem = redist::os::standard_output_problem(); !problem.empty()) {
    print_error(problem.c_str());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
