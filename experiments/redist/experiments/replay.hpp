// `redist replay`, `sweep` and `merge`: scenarios run, each compared with its paper (its claims
// checked), its report printed and its files written under the output folder (report_files.hpp), a
// summary of fidelity over several; a what-if replay on another platform and its CLAIMS.md; a sweep
// run whole, as one slice of a batch job array (sweep_shards.hpp) or resumed from its journal, and
// the slices merged. The folder is proved writable and locked against a second run
// (redist/os/folder_lock.hpp) before the first simulation.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "redist/reports/report_files.hpp"
#include "redist/experiments/scenario.hpp"
#include "redist/experiments/scenario_runner.hpp"

namespace redist::sim {

struct ReplaySettings {
  std::filesystem::path repo_root;  ///< where scenarios find platforms/ (and a what-if platform is looked for)
  std::string out = "results";      ///< folder of the reports
  bool json = false;                ///< print the JSON reports instead of the Markdown tables
  int jobs = 1;                     ///< simulations run in parallel
  PlotScripts plots;
  bool check_claims = false;  ///< fail when a claim of a paper does not hold
  std::uint64_t max_runs = kDefaultMaxRuns;
  std::string platform;  ///< what-if: every scenario replayed on this platform (a file, or a name in platforms/)
  std::string beside;    ///< what-if: the folder of an ordinary replay, for CLAIMS.md
  std::string shard;     ///< sweep: "K/N" or "auto/N", one slice of its jobs
  bool resume = false;   ///< sweep: skip the jobs its journal holds
  /// The progress display of one scenario's runs, by its name (none: no display).
  std::function<std::function<void(const Progress&)>(const std::string& scenario)> progress;
  std::ostream* out_stream = &std::cout;  ///< the reports printed
  std::ostream* err_stream = &std::cerr;  ///< scenarios a what-if platform cannot run
};

/// Runs the scenario files (`use`: Replay or Sweep), every file validated before anything runs.
/// Returns 0; throws std::runtime_error when a report cannot be written (its results are printed
/// first) or, with check_claims, when a claim does not hold.
int run_scenarios(const ReplaySettings& settings, const std::vector<std::string>& files, ScenarioUse use);

/// `redist merge`: the slices of each sweep under the folders, checked, then the reports of the
/// unsharded sweep.
int merge_sweeps(const ReplaySettings& settings, const std::vector<std::string>& folders);

}  // namespace redist::sim
