// Ranks that outnumber a host's cores, where the host declares a time slice: each keeps to one core
// (the k-th rank of the host on core k mod cores) and a core's ranks take it in turn, a rank keeping
// it until it waits or its slice ends (sim/redist/sim/core_turns.hpp). two_cores_time_slice.xml: 2
// cores, 1 ms slices, cost.index_op 10 ns.
#include <gtest/gtest.h>

#include <array>

#include "redist/predict/predicted_comm.hpp"
#include "redist/sim/machine_model_from_platform.hpp"
#include "redist/transport/machine_model.hpp"
#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

// `seconds` of index work, charged at once.
Work index_work(double seconds) { return Work(WorkKind::IndexOp, static_cast<Index>(seconds / 1e-8 + 0.5)); }

SimulationOptions three_ranks_on_node_0(const char* platform) {
  SimulationOptions options = on(platform, 3);
  options.rank_hosts = {"node-0", "node-0", "node-0"};
  return options;
}

// 2 ms each: rank 1 alone on core 1 ends at 2 ms; ranks 0 and 2 share core 0 in 1 ms turns, rank 0's
// second slice ending at 3 ms, rank 2's at 4. Without a time slice the three share both cores and
// end together at 3 ms.
TEST(CoreTurns, RanksBeyondTheCoresKeepToOneCoreAndTakeItInTurn) {
  const RankBody two_ms = [](Transport& t) {
    t.charge(index_work(2e-3));
    return seconds(t.now());
  };
  const auto turns = simulate(three_ranks_on_node_0("two_cores_time_slice.xml"), two_ms);
  const std::array<double, 3> ends = {3e-3, 2e-3, 4e-3};
  for (std::size_t r = 0; r < ends.size(); ++r) EXPECT_NEAR(seconds_of(turns[r]), ends[r], 1e-12) << "rank " << r;
  const auto shared = simulate(three_ranks_on_node_0("two_cores.xml"), two_ms);
  for (const std::string& end : shared) EXPECT_NEAR(seconds_of(end), 3e-3, 1e-12);
}

// Rank 0 waits for the message rank 1 sends after 1.5 ms of work; rank 2, on rank 0's core, computes 3 ms.
const RankBody waits_beside_work = [](Transport& t) {
  if (t.rank() == 0) {
    Request r = t.irecv(1, nullptr, 0, 5);
    t.wait_all(one(r));
  } else if (t.rank() == 1) {
    t.charge(index_work(1.5e-3));
    Request r = t.isend(0, nullptr, 0, 5);
    t.wait_all(one(r));
  } else {
    t.charge(index_work(3e-3));
  }
  return seconds(t.now());
};

// Rank 0 waits for rank 1's message (sent after 1.5 ms of work) and gives its core to rank 2, which
// computes 3 ms. The message is in at 1.521 ms (send overhead 20 us, latency 1 us), but rank 0 has its
// core again only when rank 2's slice ends, at 2 ms; it then completes the receive (30 us) and ends,
// and rank 2 finishes its last millisecond after it.
TEST(CoreTurns, ARankThatWaitsGivesItsCoreUpAndWakesOnlyWithIt) {
  const auto ends = simulate(three_ranks_on_node_0("two_cores_time_slice.xml"), waits_beside_work);
  EXPECT_NEAR(seconds_of(ends[0]), 2e-3 + kRecvOverhead, 1e-12);
  EXPECT_NEAR(seconds_of(ends[2]), 3e-3 + kRecvOverhead, 1e-12);
}

// two_cores_switch_cost.xml: two_cores_time_slice.xml whose cores lose 0.1 ms each time they pass
// from one rank to another at 1.5 ranks per core (0.2 ms from 2). The turns of the first test, each
// pass of core 0 0.1 ms late: rank 0 1 ms, rank 2 from 1.1 to 2.1, rank 0 from 2.2 to 3.2 (its end),
// rank 2 from 3.3 to 4.3. Rank 1, alone on core 1, passes nothing.
TEST(CoreTurns, ACoreLosesItsSwitchCostEachTimeItPassesFromOneRankToAnother) {
  const auto ends = simulate(three_ranks_on_node_0("two_cores_switch_cost.xml"), [](Transport& t) {
    t.charge(index_work(2e-3));
    return seconds(t.now());
  });
  const std::array<double, 3> expected = {3.2e-3, 2e-3, 4.3e-3};
  for (std::size_t r = 0; r < expected.size(); ++r) EXPECT_NEAR(seconds_of(ends[r]), expected[r], 1e-12) << "rank " << r;
}

// The second test's wait with switches: every rank enters at 0, rank 0 waiting at once without
// taking its core, which rank 2 takes free (no pass: nobody held it) for slices from 0; rank 0's
// message is in at 1.521 ms, and it has its core when rank 2's slice ends at 2 ms, 0.1 ms later;
// it completes the receive (30 us) and ends at 2.13 ms; rank 2 takes the core back (0.1 ms) and
// computes its last millisecond from 2.23 ms.
TEST(CoreTurns, ARankThatWaitedTakesItsCoreBackAtTheSwitchCost) {
  const auto ends = simulate(three_ranks_on_node_0("two_cores_switch_cost.xml"), waits_beside_work);
  EXPECT_NEAR(seconds_of(ends[0]), 2.1e-3 + kRecvOverhead, 1e-12);
  EXPECT_NEAR(seconds_of(ends[2]), 2.2e-3 + kRecvOverhead + 1e-3, 1e-12);
}

// Every rank's clock runs from the call's start, its core or not: ranks 0 and 2 on core 0 each
// compute 0.5 ms, in turn; rank 2's call, timed from 0, takes 1 ms (its wait for the core
// included), not the 0.5 ms of its own turn.
TEST(CoreTurns, ARankWaitingForItsCoreAtTheStartCountsTheWait) {
  const auto elapsed = simulate(three_ranks_on_node_0("two_cores_time_slice.xml"), [](Transport& t) {
    const double start = t.now();
    t.charge(index_work(0.5e-3));
    return seconds(t.now() - start);
  });
  EXPECT_NEAR(seconds_of(elapsed[0]), 0.5e-3, 1e-12);
  EXPECT_NEAR(seconds_of(elapsed[2]), 1e-3, 1e-12);
}

TEST(CoreTurns, ATimeSliceOfZeroIsRefused) {
  EXPECT_ONE_LINE_CONTAINING(error_of(three_ranks_on_node_0("bad_time_slice.xml"), [](Transport&) { return std::string(); }),
                             "host node-0 has a time slice (cpu.time_slice) of 0 s");
}

// The prediction prices the same placement: the busiest core's ranks, one after the other.
TEST(CoreTurns, ThePredictionSumsTheBusiestCore) {
  MachineModel m;
  m.cores = 2;
  const std::vector<double> work = {3, 1, 2};  // ranks 0 and 2 on core 0, rank 1 on core 1
  EXPECT_DOUBLE_EQ(m.busiest_host(work), 3);   // sharing both cores: max(longest 3, 6 / 2)
  m.time_slice = 1e-3;
  EXPECT_DOUBLE_EQ(m.busiest_host(work), 5);
  EXPECT_DOUBLE_EQ(m.busiest_host({3, 1}), 3);  // within the cores: unchanged
}

// The prediction prices the switches as the simulator counts them for a rank that waits: once per
// message it receives, on its core; at the run's ranks per core, and only where ranks keep to cores.
TEST(CoreTurns, ThePredictionPricesASwitchPerMessageReceived) {
  const MachineModel m = machine_model_from_platform(platform("two_cores_switch_cost.xml"), 1, 1);
  EXPECT_EQ(m.switch_costs, PiecewiseCurve::parse("0:1e-4;2:2e-4", true));
  const std::optional<MachineModel> three = m.run_by(3), four = m.run_by(4);
  ASSERT_TRUE(three && four);
  EXPECT_DOUBLE_EQ(three->switch_cost, 1e-4);
  EXPECT_DOUBLE_EQ(four->switch_cost, 2e-4);
  MachineModel sliceless = m;
  sliceless.time_slice = 0;
  EXPECT_EQ(sliceless.run_by(4)->switch_cost, 0);
  // Ranks 0 and 2 (core 0) each receive one message: two switches on core 0, one on core 1 (rank 1).
  const std::vector<RankMessage> messages = {{1, 0, 0}, {3, 2, 0}, {0, 1, 0}};
  MachineModel free_switches = *four;
  free_switches.switch_cost = 0;
  EXPECT_NEAR(concurrent_messages_seconds(messages, *four) - concurrent_messages_seconds(messages, free_switches),
              2 * 2e-4, 1e-15);
}

}  // namespace
}  // namespace redist::sim
