// Runs every simulation a scenario asks for — parameter sets × methods × repetitions — on a pool of
// `jobs` worker processes (forked; each simulation then forks once more, see engine.hpp), and
// collects the records in a fixed order so that the outputs do not depend on the number of jobs.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "redist/reports/replay_report.hpp"
#include "redist/experiments/experiments.hpp"

namespace redist::sim {

struct Progress {
  std::size_t done = 0;
  std::size_t total = 0;
};

/// Refuses the scenario when one of its runs would be refused (Experiment::check: sizes, method
/// limits, memory), naming the run, without running any. run_jobs checks its jobs so too.
void check_runs(const Scenario& scenario, const std::function<void(const Progress&)>& progress = {});

/// About the bytes the list of a scenario's runs takes while they are listed and checked (its
/// parameter sets, and its jobs), counted without listing them; UINT64_MAX beyond 64 bits.
std::uint64_t run_list_bytes(const Scenario& scenario);

/// The simulations of a scenario. Throws the first failure (naming the run) after all workers stop.
std::vector<Record> run_scenario(const Scenario& scenario, int jobs, const std::function<void(const Progress&)>& progress);

/// Which of a scenario's jobs (parameter sets × methods, in a fixed order) one invocation runs: the
/// shard-th of `shards` round-robin slices, less the jobs whose result lines are already known.
struct JobSelection {
  std::size_t shard = 0;
  std::size_t shards = 1;
  std::map<std::size_t, std::string> known;               ///< job -> its result line, not run again
  std::function<void(const std::string&)> on_result = {};  ///< each new result line, as it arrives
};

/// The result lines of the selected jobs (known ones included), indexed by job; the other entries
/// are empty. A line is JSON: {"job":k,"phases":...,"quantities":...} or {"job":k,"error":...}.
std::vector<std::string> run_jobs(const Scenario& scenario, int jobs, const std::function<void(const Progress&)>& progress,
                                  const JobSelection& selection);

/// The records of a scenario from the result lines of all its jobs, with the published values.
/// Throws the first failed run, or names a job without a line.
std::vector<Record> records_from_lines(const Scenario& scenario, const std::vector<std::string>& lines);

}  // namespace redist::sim
