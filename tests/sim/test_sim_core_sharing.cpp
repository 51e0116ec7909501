// What a platform declares at each level of ranks per core (redist/transport/ranks_per_core.hpp),
// priced by the simulator as its curves say: a rank's copies slowed by the host's redist.copy_slowdown
// at its level, beyond taking turns on its core, and its messages to the host's other ranks copied
// by CPUs at 2B / cores, B the link's redist.oversubscribed_bandwidths at its level.
// two_cores_by_level.xml: 2 cores, 1 ms slices, 1 ns a byte copied, 10 ns an index op; copies 1.5
// times as long below 2 ranks per core, twice from 2, three times from 3; B 10 MB/s below 2, 25 MB/s
// from 2, 40 MB/s from 3.
#include <gtest/gtest.h>

#include <vector>

#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

SimulationOptions on_node_0(const char* platform_name, int ranks) {
  SimulationOptions options = on(platform_name, ranks, /*phantom=*/true);
  options.rank_hosts.assign(static_cast<std::size_t>(ranks), "node-0");
  return options;
}

std::vector<double> ends_of(const std::vector<std::string>& out) {
  std::vector<double> ends;
  for (const std::string& s : out) ends.push_back(seconds_of(s));
  return ends;
}

// Each rank's end of `body` on `platform_name`'s node-0, at each rank count, against `expected`.
void expect_ends(const char* platform_name, const RankBody& body,
                 const std::vector<std::pair<int, std::vector<double>>>& expected) {
  for (const auto& [ranks, ends] : expected) {
    const auto got = ends_of(simulate(on_node_0(platform_name, ranks), body));
    ASSERT_EQ(got.size(), ends.size());
    for (std::size_t r = 0; r < ends.size(); ++r) EXPECT_NEAR(got[r], ends[r], 1e-12) << ranks << " ranks, rank " << r;
  }
}

// 1 MB copied: 1 ms at the price. Two ranks: within the cores, 1 ms each. Three (1.5 per core): 1.5 ms
// each; rank 1 alone on core 1, ranks 0 and 2 taking core 0 in 1 ms turns (rank 0 ends at 2.5 ms,
// rank 2 at 3). Four (2 per core): 2 ms each, two ranks on each core in turn (3 and 4 ms). Index work
// is no copy: 1 ms of it on three ranks ends as turns alone give.
TEST(SimCoreSharing, ARanksCopiesTakeTheSlowdownOfItsLevel) {
  const RankBody copy = [](Transport& t) {
    t.charge(Work(WorkKind::ByteCopied, 1'000'000));
    return seconds(t.now());
  };
  expect_ends("two_cores_by_level.xml", copy, {{2, {1e-3, 1e-3}}, {3, {2.5e-3, 1.5e-3, 3e-3}}, {4, {3e-3, 3e-3, 4e-3, 4e-3}}});
  const auto index = ends_of(simulate(on_node_0("two_cores_by_level.xml", 3), [](Transport& t) {
    t.charge(Work(WorkKind::IndexOp, 100'000));
    return seconds(t.now());
  }));
  EXPECT_NEAR(index[0], 1e-3, 1e-12);
  EXPECT_NEAR(index[1], 1e-3, 1e-12);
  EXPECT_NEAR(index[2], 2e-3, 1e-12);
  // The same platform without the curves (two_cores_time_slice.xml): turns alone, 1 ms each.
  const auto plain = ends_of(simulate(on_node_0("two_cores_time_slice.xml", 3), copy));
  EXPECT_NEAR(plain[2], 2e-3, 1e-12);
}

// two_cores_work_slowdown.xml: 1 ms of index work at the price takes 1.25 ms below 2 ranks per core
// and 1.5 ms from 2, in 1 ms turns: at three ranks rank 1 alone on core 1 (1.25 ms), ranks 0 and 2
// taking core 0 (0-1, 1-2, then 2-2.25 and 2.25-2.5); at four, two ranks on each core (2.5 and 3);
// within the cores, as priced. Copies keep their own slowdown.
TEST(SimCoreSharing, ARanksOtherWorkTakesTheWorkSlowdownOfItsLevel) {
  const RankBody index = [](Transport& t) {
    t.charge(Work(WorkKind::IndexOp, 100'000));
    return seconds(t.now());
  };
  expect_ends("two_cores_work_slowdown.xml", index,
              {{2, {1e-3, 1e-3}}, {3, {2.25e-3, 1.25e-3, 2.5e-3}}, {4, {2.5e-3, 2.5e-3, 3e-3, 3e-3}}});
  const auto copies = ends_of(simulate(on_node_0("two_cores_work_slowdown.xml", 3), [](Transport& t) {
    t.charge(Work(WorkKind::ByteCopied, 1'000'000));
    return seconds(t.now());
  }));
  EXPECT_NEAR(copies[1], 1.5e-3, 1e-12);
}

// A message of 100 kB from rank 0 to rank 1, the receiver's CPU copying it at B / 2 cores, B the
// curve's at the host's level (the single value, 1 MB/s, is not used): 10 MB/s at 3 ranks, 25 at 4,
// 40 at 6. The send completes once the receiver has copied it, its acknowledgement one latency on.
TEST(SimCoreSharing, MessagesAreCopiedAtTheBandwidthOfTheirLevel) {
  constexpr Index kBytes = 100'000;
  for (const auto& [ranks, bandwidth] : std::vector<std::pair<int, double>>{{3, 10e6}, {4, 25e6}, {6, 40e6}}) {
    const auto out = simulate(on_node_0("two_cores_by_level.xml", ranks), [&](Transport& t) {
      std::vector<Request> requests;
      if (t.rank() == 0) requests.push_back(t.isend(1, nullptr, kBytes, 0));
      if (t.rank() == 1) requests.push_back(t.irecv(0, nullptr, kBytes, 0));
      t.wait_all(requests);
      return seconds(t.now());
    });
    const double copy = kBytes / (bandwidth / 2);
    EXPECT_NEAR(seconds_of(out[1]), kSendOverhead + 1e-6 + kRecvOverhead + copy, 1e-9) << ranks << " ranks";
    EXPECT_NEAR(seconds_of(out[0]), seconds_of(out[1]) + 1e-6, 1e-9) << ranks << " ranks";
  }
}

TEST(SimCoreSharing, AMalformedCurveIsRefusedNamingItsProperty) {
  EXPECT_ONE_LINE_CONTAINING(error_of(on_node_0("bad_copy_slowdown.xml", 3), [](Transport&) { return std::string(); }),
                             "host node-0 property redist.copy_slowdown: values must be positive");
}

}  // namespace
}  // namespace redist::sim
