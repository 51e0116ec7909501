// `redist replay FILE... | --all`, `redist sweep FILE` and `redist merge DIR...`: run scenarios
// (redist/experiments/replay.hpp) and write, per scenario, a Markdown table (also printed), CSV, JSON and a
// PNG plot under --out (default results/).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "progress_bar.hpp"
#include "redist/experiments/replay.hpp"
#include "repo_paths.hpp"

namespace redist::cli {
namespace {

namespace fs = std::filesystem;

struct ReplayOptions {
  std::vector<std::string> files;  ///< scenario files, or (merge) folders of slices
  bool all = false;                ///< replay: every scenario in scenarios/
  bool plot = true;
  double progress_seconds = 10;  ///< interval of the progress lines printed when stderr is not a terminal
  sim::ReplaySettings settings;
};

// The files named, or with --all every scenarios/*.yaml in name order.
std::vector<std::string> scenario_files(const ReplayOptions& o) {
  std::vector<std::string> files = o.files;
  if (o.all) {
    for (const auto& entry : fs::directory_iterator(repo_root() / "scenarios")) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
  }
  return files;
}

// The settings with the repository's folders (platforms/, reports/*.py) and a progress bar per scenario.
sim::ReplaySettings settings_of(const ReplayOptions& o) {
  sim::ReplaySettings s = o.settings;
  s.repo_root = repo_root();
  s.plots = {o.plot, repo_root() / "reports"};
  const double interval = o.progress_seconds;
  s.progress = [interval](const std::string& scenario) -> std::function<void(const sim::Progress&)> {
    return ProgressBar(scenario, interval);
  };
  return s;
}

void add_common_options(CLI::App* app, ReplayOptions& o) {
  app->add_option("--out", o.settings.out, "directory for the reports")->capture_default_str();
  app->add_option("--jobs", o.settings.jobs, "simulations run in parallel")->check(CLI::Range(1, 256))->capture_default_str();
  app->add_flag("!--no-plot", o.plot, "skip the PNG plots");
  app->add_flag("--json", o.settings.json, "print the JSON reports instead of the Markdown tables");
  app->add_option("--max-runs", o.settings.max_runs, "refuse a scenario of more runs (parameter sets x methods)")
      ->check(CLI::Range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max()))
      ->capture_default_str();
  app->add_option("--progress-seconds", o.progress_seconds,
                  "when stderr is not a terminal: seconds between progress lines")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  add_max_memory_option(app);
}

}  // namespace

void add_replay_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ReplayOptions>();
  auto* app = root.add_subcommand("replay", "Replay published experiments (scenarios/*.yaml) beside their published values");
  app->add_option("files", o->files, "scenario files")->check(CLI::ExistingFile);
  app->add_flag("--all", o->all, "every scenario in scenarios/");
  app->add_flag("--check-claims", o->settings.check_claims, "exit non-zero when a claim of a paper does not hold");
  auto* platform = app->add_option("--platform", o->settings.platform,
                                   "what-if: replay on this platform (a file, or a name in platforms/) instead of each "
                                   "scenario's own; the papers' claims are checked there and listed in CLAIMS.md");
  app->add_option("--beside", o->settings.beside,
                  "what-if: the output folder of an ordinary replay, whose claims CLAIMS.md shows beside")
      ->needs(platform)
      ->check(CLI::ExistingDirectory);
  add_common_options(app, *o);
  commands.push_back({app, [o] { return sim::run_scenarios(settings_of(*o), scenario_files(*o), ScenarioUse::Replay); }});
}

void add_sweep_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ReplayOptions>();
  auto* app = root.add_subcommand("sweep", "Run a parameter sweep (a scenario without published values)");
  app->add_option("files", o->files, "sweep files")->required()->check(CLI::ExistingFile);
  app->add_option("--shard", o->settings.shard,
                  "run only slice K of N (K/N, 0 <= K < N; auto/N: K from SLURM_ARRAY_TASK_ID) and write "
                  "NAME.shard-K-of-N.json for `redist merge`");
  app->add_flag("--resume", o->settings.resume, "skip the runs an interrupted sweep into the same --out has finished");
  add_common_options(app, *o);
  commands.push_back({app, [o] { return sim::run_scenarios(settings_of(*o), scenario_files(*o), ScenarioUse::Sweep); }});
}

void add_merge_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ReplayOptions>();
  auto* app = root.add_subcommand("merge", "Merge the slices of sharded sweeps (redist sweep --shard) into their reports");
  app->add_option("folders", o->files, "folders holding NAME.shard-K-of-N.json files")->required();
  add_common_options(app, *o);
  commands.push_back({app, [o] { return sim::merge_sweeps(settings_of(*o), o->files); }});
}

}  // namespace redist::cli
