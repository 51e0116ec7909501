// `redist validate --platform FILE [--quick] [--random K] [--random-2d K] [--within-cores K] [--seed S]
// [--repeat K] [--rounds R] [--max-error E] [--max-p90 E] [--measured FILE] [--json]`: runs redistributions (14
// hand-picked 1-D ones, K seeded random 1-D ones: random_validation_cases; the twelve benchmark
// pairs and K seeded random 2-D ones, about a third of them copies of sub(A) into sub(B) run by the
// drop-in's submatrix plan, each column-major one also moved by ScaLAPACK's pdgemr2d;
// K more, 1-D and 2-D, whose ranks fit the platform's cores)
// for real under mpirun and in the simulator on a platform
// written by `redist calibrate`, and reports per case the measured (fastest of R rounds) and
// simulated total time (maximum over ranks) and their ratio, then the median and 90th percentile of
// |sim - real| / real, how many cases the simulator is optimistic on, and the worst five; with two
// rounds or more, also how far a case's rounds spread, the noise those errors are read against; and
// where the misses lie: each phase's ratio and share of the error, the error by rank count, and each
// set's figures (1-D, 2-D; ranks within the cores, beyond them). --measured FILE takes the
// measurements of an earlier --json output of the same cases instead of running them, and simulates
// them on --platform: a model change scored on runs already taken.
// Simulated ranks sit on the platform's hosts in turn (rank i on node-(i mod hosts)): on a calibrated
// platform all on its one host, the k-th on core k mod cores, as the launcher binds the MPI ranks.
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "options.hpp"
#include "redist/calibration/measured_cases.hpp"
#include "redist/calibration/random_validation_cases.hpp"
#include "redist/calibration/validation_report.hpp"
#include "redist/calibration/validation_runs.hpp"
#include "redist/calibration/validation_summary.hpp"
#include "redist/os/utf8.hpp"
#include "repo_paths.hpp"

namespace redist::cli {
namespace {

using calibration::RoundSpread;
using calibration::ValidationCase;
using calibration::ValidationSummary;

struct ValidateOptions {
  std::string platform;
  bool quick = false;
  int random = 50;
  int random_2d = 20;
  Index pairs_side = 1024;  // 8 MiB of doubles, as the random cases' arrays (1 to 16 MiB)
  int within_cores = 24;
  std::uint64_t seed = 18;  // a fixed default, so that runs are reproducible
  int repeat = 5;
  int rounds = 3;
  double max_error = -1, max_p90 = -1;
  bool json = false;
  std::string measured;  // an earlier --json output whose measurements are re-simulated, nothing run
  calibration::MpiLauncher launcher;
};

std::vector<ValidationCase> cases(const ValidateOptions& o, int cores) {
  auto all = calibration::hand_picked_validation_cases(o.quick);
  const auto add = [&all](std::vector<ValidationCase> more) {
    for (auto& c : more) all.push_back(std::move(c));
  };
  if (o.quick) {  // one 2-D case, small, and pdgemr2d on it
    const ValidationCase matrix = calibration::benchmark_validation_cases(256, 256).front();
    all.push_back(matrix);
    all.push_back(matrix.by_pdgemr2d());
    return all;
  }
  add(calibration::random_validation_cases(o.random, o.seed));
  std::vector<ValidationCase> matrices;
  if (o.pairs_side > 0) matrices = calibration::benchmark_validation_cases(o.pairs_side, o.pairs_side);
  for (auto& c : calibration::random_matrix_validation_cases(o.random_2d, o.seed)) matrices.push_back(std::move(c));
  // Each 2-D case ScaLAPACK can store (column-major) also moved by pdgemr2d, measured and simulated.
  std::vector<ValidationCase> twins;
  for (const ValidationCase& c : matrices) {
    if (c.matrix->from.order == StorageOrder::ColumnMajor && c.matrix->to.order == StorageOrder::ColumnMajor) {
      twins.push_back(c.by_pdgemr2d());
    }
  }
  add(std::move(matrices));
  add(std::move(twins));
  // Within the cores (at least two ranks): half 1-D, half 2-D, from streams of their own.
  const Index fit = std::max(2, cores);
  add(calibration::random_validation_cases((o.within_cores + 1) / 2, o.seed + 1, fit));
  add(calibration::random_matrix_validation_cases(o.within_cores / 2, o.seed + 1, fit));
  return all;
}

int run_validate(ValidateOptions o) {
  if (o.launcher.redist_mpi.empty()) o.launcher.redist_mpi = built_redist_mpi();
  // The JSON names the platform: a path it cannot hold is refused before the first measurement.
  if (o.json) os::require_utf8(o.platform, "--platform", "--json prints UTF-8; rename the file or drop --json");
  const int hosts = calibration::platform_host_count(o.platform);
  const int cores = hosts * calibration::platform_core_count(o.platform);
  const std::vector<ValidationCase> all = cases(o, cores);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  std::vector<double> measured, simulated;
  std::vector<calibration::ComparedCase> compared_cases;
  const calibration::CaseMeasurements measurements =
      o.measured.empty() ? calibration::measure_cases(o.launcher, all, o.repeat, o.rounds)
                         : calibration::read_measured_cases(o.measured, all);
  const std::vector<Phases>& measured_runs = measurements.fastest;
  std::optional<RoundSpread> spread;
  const std::size_t rounds = measurements.totals.empty() ? 0 : measurements.totals.front().size();
  if (rounds >= 2) spread = calibration::summarise_round_spread(measurements.totals);
  if (!o.json) std::cout << calibration::kValidationTableHeader;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const calibration::ComparedCase compared{all[i], measured_runs[i],
                                             calibration::simulate_case(o.platform, all[i], hosts), measurements.totals[i]};
    measured.push_back(compared.measured.total);
    simulated.push_back(compared.simulated.total);
    rows.push_back(calibration::compared_case_json(compared));
    if (!o.json) std::cout << calibration::compared_case_row(compared) << std::flush;
    compared_cases.push_back(compared);
  }
  const calibration::ValidationMisses misses = calibration::validation_misses(compared_cases, cores);
  const ValidationSummary summary = calibration::summarise_validation(measured, simulated);
  if (o.json) {
    nlohmann::ordered_json worst = nlohmann::ordered_json::array();
    for (const std::size_t i : summary.worst) worst.push_back(all[i].label());
    std::cout << nlohmann::ordered_json{{"platform", o.platform},
                                        {"seed", o.seed},
                                        {"random_cases", o.quick ? 0 : o.random},
                                        {"pairs_side", o.quick ? 0 : o.pairs_side},
                                        {"random_2d_cases", o.quick ? 0 : o.random_2d},
                                        {"within_cores_cases", o.quick ? 0 : o.within_cores},
                                        {"cores", cores},
                                        {"repeat", o.repeat},
                                        {"rounds", rounds},
                                        {"cases", rows},
                                        {"median_relative_error", summary.median},
                                        {"p90_relative_error", summary.p90},
                                        {"optimistic_cases", summary.optimistic},
                                        {"round_spread_median", spread ? nlohmann::ordered_json(spread->median) : nullptr},
                                        {"round_spread_p90", spread ? nlohmann::ordered_json(spread->p90) : nullptr},
                                        {"worst_cases", worst},
                                        {"misses", calibration::validation_misses_json(misses)}}
                     .dump()
              << "\n";
  } else {
    std::cout << calibration::validation_summary_text(all, measured, simulated, summary, spread)
              << calibration::validation_misses_text(misses);
  }
  const bool median_too_high = o.max_error >= 0 && summary.median > o.max_error;
  return median_too_high || (o.max_p90 >= 0 && summary.p90 > o.max_p90) ? 1 : 0;
}

}  // namespace

void add_validate_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ValidateOptions>();
  auto* app = root.add_subcommand("validate", "Compare real MPI runs with the simulator on a calibrated platform");
  app->add_option("--platform", o->platform, "platform written by `redist calibrate`")->required()->check(CLI::ExistingFile);
  app->add_flag("--quick", o->quick, "four small hand-picked cases instead of the full set (seconds, for tests)");
  app->add_option("--random", o->random, "seeded random cases run after the 14 hand-picked ones")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app->add_option("--pairs-side", o->pairs_side, "matrix side of the twelve benchmark pairs (0: none)")
      ->check(CLI::Range(Index{0}, Index{1} << 20))
      ->capture_default_str();
  app->add_option("--random-2d", o->random_2d, "seeded random 2-D cases (about a third submatrix copies), after the twelve benchmark pairs")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app->add_option("--within-cores", o->within_cores,
                  "seeded random cases (half 1-D, half 2-D) whose ranks fit the platform's cores")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app->add_option("--seed", o->seed, "seed of the random cases (the same seed, the same cases)")->capture_default_str();
  app->add_option("--repeat", o->repeat, "MPI repetitions per case (the fastest counts)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app->add_option("--rounds", o->rounds, "passes over all the cases, one mpirun per case each (the fastest counts)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app->add_option("--max-error", o->max_error, "exit 1 when the median relative error exceeds this (e.g. 0.25)")
      ->check(CLI::Range(0.0, 100.0));
  app->add_option("--max-p90", o->max_p90, "exit 1 when the 90th percentile of the relative error exceeds this")
      ->check(CLI::Range(0.0, 100.0));
  app->add_option("--redist-mpi", o->launcher.redist_mpi, "redist-mpi program (default: the one built with redist)");
  app->add_option("--mpirun", o->launcher.mpirun, "MPI launcher command")->capture_default_str();
  app->add_option("--mpirun-timeout", o->launcher.timeout_s,
                  "seconds one mpirun may run before it is ended with its ranks (SIGTERM, then SIGKILL; 0: no limit)")
      ->check(CLI::Range(0.0, 1e9))
      ->capture_default_str();
  app->add_option("--measured", o->measured,
                  "re-simulate the measurements of this earlier `redist validate --json` output instead of running "
                  "mpirun (the same cases: the same options, a platform of as many cores)")
      ->check(CLI::ExistingFile);
  app->add_flag("--json", o->json, "print the cases and the error figures as JSON");
  commands.push_back({app, [o] { return run_validate(*o); }});
}

}  // namespace redist::cli
