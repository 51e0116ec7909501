// `redist calibrate --out FILE [--max-bytes B] [--cores C] [--passes K] [--redist-mpi PATH] [--mpirun CMD]`:
// measures this machine under mpirun and writes a SimGrid platform for it, and its machine model
// (redist/calibration/machine_calibration.hpp); prints every fitted value and residual.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "redist/calibration/machine_calibration.hpp"
#include "repo_paths.hpp"

namespace redist::cli {
namespace {

int run_calibrate(calibration::CalibrationSettings o) {
  if (o.launcher.redist_mpi.empty()) o.launcher.redist_mpi = built_redist_mpi();
  const auto result = calibration::calibrate_machine(o);
  std::cout << result.report << "platform written to " << o.out << ", its machine model to " << result.model << "\n";
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<calibration::CalibrationSettings>();
  auto* app = root.add_subcommand("calibrate", "Measure this machine under mpirun and write a SimGrid platform for it");
  app->add_option("--out", o->out, "platform XML to write")->required();
  app->add_option("--max-bytes", o->max_bytes, "largest ping-pong message")
      ->check(whole_number())
      ->check(CLI::Range(Index{64}, Index{1} << 30))
      ->capture_default_str();
  app->add_option("--seconds-per-size", o->seconds_per_size, "measuring time per message size")
      ->check(CLI::Range(0.0001, 10.0))
      ->capture_default_str();
  app->add_option("--cores", o->cores, "cores of the platform's host (the ranks share them)")
      ->check(whole_number())
      ->check(CLI::Range(Index{1}, Index{4096}))
      ->capture_default_str();
  app->add_option("--passes", o->passes,
                  "measuring passes, one after another, each measuring everything once; each ping-pong size, "
                  "all-to-all and local-work row kept at its fastest (a shared machine's slow spells spoil a "
                  "pass, not a measurement)")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  app->add_option("--redist-mpi", o->launcher.redist_mpi, "redist-mpi program (default: the one built with redist)");
  app->add_option("--mpirun", o->launcher.mpirun, "MPI launcher command")->capture_default_str();
  app->add_option("--mpirun-timeout", o->launcher.timeout_s,
                  "seconds one mpirun may run before it is ended with its ranks (SIGTERM, then SIGKILL; 0: no limit)")
      ->check(CLI::Range(0.0, 1e9))
      ->capture_default_str();
  commands.push_back({app, [o] { return run_calibrate(*o); }});
}

}  // namespace redist::cli
