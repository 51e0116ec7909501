// `redist fit SPEC.fit.yaml [--out FILE] [--jobs N]`: fits at most 6 named platform values, each
// inside its plausible range, to the published cells of the train scenarios, and writes the fitted
// platform beside the derived one. The objective is Σ (log simulated − log published)² over every
// published cell (relative errors), minimised in log-parameter space (redist/calibration/platform_fit.hpp).
#include <iostream>
#include <memory>

#include "command.hpp"
#include "redist/calibration/fit_spec.hpp"
#include "redist/calibration/platform_fit.hpp"
#include "repo_paths.hpp"

namespace redist::cli {
namespace {

struct FitOptions {
  std::string spec;
  std::string out;  // default: the spec's `fitted`
  int jobs = 1;
};

int run_fit(const FitOptions& o) {
  const auto spec = calibration::load_fit_spec(o.spec, repo_root().string());
  const auto result = calibration::fit_platform(spec, o.jobs, o.out, std::cerr);
  std::cout << result.table << "Fitted platform: " << result.file << "\n";
  return 0;
}

}  // namespace

void add_fit_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<FitOptions>();
  auto* app = root.add_subcommand(
      "fit", "Fit at most 6 named platform values to the published cells of train scenarios (SPEC.fit.yaml)");
  app->add_option("spec", o->spec, "fit specification")->required()->check(CLI::ExistingFile);
  app->add_option("--out", o->out, "fitted platform file (default: the spec's 'fitted', beside the platform)");
  app->add_option("--jobs", o->jobs, "simulations run in parallel")->check(CLI::Range(1, 256))->capture_default_str();
  commands.push_back({app, [o] { return run_fit(*o); }});
}

}  // namespace redist::cli
