// Runs every simulation a scenario asks for — parameter sets × methods × repetitions — on a pool of
// `jobs` worker processes (forked; each simulation then forks once more, see engine.hpp), and
// collects the records in a fixed order so that the outputs do not depend on the number of jobs.
#pragma once

#include <functional>
#include <vector>

#include "redist/analysis/replay_report.hpp"
#include "redist/sim/experiments.hpp"

namespace redist::sim {

struct Progress {
  std::size_t done = 0;
  std::size_t total = 0;
};

/// The simulations of a scenario. Throws the first failure (naming the run) after all workers stop.
std::vector<Record> run_scenario(const Scenario& scenario, int jobs, const std::function<void(const Progress&)>& progress);

}  // namespace redist::sim
