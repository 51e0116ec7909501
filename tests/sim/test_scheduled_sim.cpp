// The scheduled exchanges on the SimGrid transport: real data arrives verified on a simulated IBM
// SP2 for every schedule, and the step counts show in simulated time as in paper 004 §5.2.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "redist/redistribute/verified_run.hpp"
#include "redist/sim/engine.hpp"

namespace redist {
namespace {

struct Outcome {
  bool verified = true;
  double comm = 0;  // the slowest rank's communication phase, as the paper times it
};

// Redistributes on `ranks` simulated SP2 nodes; each rank reports "<verified> <comm seconds>".
Outcome simulate(const Layout& source, const Layout& dest, const std::string& schedule, int ranks) {
  sim::SimulationOptions options;
  options.platform_file = std::string(REDIST_SOURCE_DIR) + "/platforms/sp2.xml";
  options.ranks = ranks;
  const auto results = sim::simulate(options, [&](Transport& transport) {
    const auto run = redistribute_and_verify(transport, source, dest, {.elem_bytes = 8, .schedule = schedule});
    char text[64];
    std::snprintf(text, sizeof text, "%d %.17g", run.verified.value_or(false) ? 1 : 0, run.report.phases.comm);
    return std::string(text);
  });
  Outcome outcome;
  for (const auto& line : results) {
    int verified = 0;
    double comm = 0;
    std::sscanf(line.c_str(), "%d %lf", &verified, &comm);
    outcome.verified = outcome.verified && verified == 1;
    outcome.comm = std::max(outcome.comm, comm);
  }
  return outcome;
}

// Example 1 (P = Q = 16, r = 3, s = 5): 7 steps instead of the caterpillar's 16.
TEST(ScheduledSimulation, Example1StepwiseBeatsCaterpillar) {
  const Index n = 240 * 200;
  const Layout source = BlockCyclic(n, 3, 16), dest = BlockCyclic(n, 5, 16);
  double comm[4] = {};
  const char* names[4] = {"async", "caterpillar", "stepwise", "greedy"};
  for (int k = 0; k < 4; ++k) {
    const Outcome outcome = simulate(source, dest, names[k], 16);
    EXPECT_TRUE(outcome.verified) << names[k];
    EXPECT_GT(outcome.comm, 0) << names[k];
    comm[k] = outcome.comm;
  }
  EXPECT_LT(comm[2], comm[1]) << "stepwise " << comm[2] << " s, caterpillar " << comm[1] << " s";
  std::printf("[ simulated ] example 1 on the SP2, comm: async %.3g s, caterpillar %.3g s, stepwise %.3g s "
              "(ratio %.2f), greedy %.3g s\n",
              comm[0], comm[1], comm[2], comm[2] / comm[1], comm[3]);
}

TEST(ScheduledSimulation, WalkerOttoAndUnequalGrids) {
  EXPECT_TRUE(simulate(BlockCyclic(4000, 2, 8), BlockCyclic(4000, 6, 8), "walker-otto", 8).verified);
  for (const char* schedule : {"caterpillar", "stepwise", "greedy"}) {
    EXPECT_TRUE(simulate(BlockCyclic(4321, 4, 12), BlockCyclic(4321, 3, 8), schedule, 12).verified) << schedule;
  }
}

}  // namespace
}  // namespace redist
