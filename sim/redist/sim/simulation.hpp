// One simulation run inside the current process: platform, placement of the ranks, actors, run.
// simulate() calls it in a forked child; SimGrid allows it once per process.
#pragma once

#include <string>
#include <vector>

#include "redist/sim/engine.hpp"

namespace redist::sim {

std::vector<std::string> run_simulation(const SimulationOptions& options, const RankBody& body);

}  // namespace redist::sim
