// The simulated network: one message's time, link sharing, fat-tree levels, platform configuration.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "redist/core/piecewise_curve.hpp"
#include "redist/sim/network_factors.hpp"
#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

struct Flow {
  Rank from;
  Rank to;
};

// Every flow of `flows` (one message of `bytes` each) at once; returns each rank's clock at the end.
std::vector<double> run_flows(const char* platform_name, int ranks, std::vector<Flow> flows, Index bytes) {
  const auto out = simulate(on(platform_name, ranks, /*phantom=*/true), [&](Transport& t) {
    std::vector<Request> requests;
    for (const Flow& f : flows) {
      if (f.to == t.rank()) requests.push_back(t.irecv(f.from, nullptr, bytes, 0));
      if (f.from == t.rank()) requests.push_back(t.isend(f.to, nullptr, bytes, 0));
    }
    t.wait_all(requests);
    return seconds(t.now());
  });
  std::vector<double> times;
  for (const auto& s : out) times.push_back(seconds_of(s));
  return times;
}


TEST(SimEngineModel, OneMessageTakesLatencyPlusSizeOverBandwidthPlusOverheads) {
  constexpr Index kBytes = 1'000'000;
  const auto t = run_flows("two_hosts.xml", 2, {{0, 1}}, kBytes);
  const double wire = 50e-6 + kBytes / 10e6;
  EXPECT_NEAR(t[0], kSendOverhead + wire, 1e-6 * t[0]);
  EXPECT_NEAR(t[1], kSendOverhead + wire + kRecvOverhead, 1e-6 * t[1]);
}

// The platform's factor curves apply by message size: below 10000 bytes the link as declared, from
// there twice its latency and half its bandwidth.
TEST(SimEngineModel, NetworkFactorsFollowTheMessageSize) {
  for (const Index bytes : {Index{1000}, Index{9999}, Index{10000}, Index{1'000'000}}) {
    const auto t = run_flows("two_hosts_factors.xml", 2, {{0, 1}}, bytes);
    const double factor = bytes < 10000 ? 1 : 2;
    const double wire = factor * 50e-6 + static_cast<double>(bytes) / (10e6 / factor);
    EXPECT_NEAR(t[1], kSendOverhead + wire + kRecvOverhead, 1e-9 + 1e-6 * t[1]) << bytes << " bytes";
  }
}

// Ranks on one host of two cores: their messages cross its link at 100 MB/s while they are two;
// once a third rank shares the cores, each message is copied by CPUs instead, the sender's before
// it leaves and the receiver's once it has arrived, each at 2 × the link's oversubscribed 25 MB/s
// / 2 cores, and crosses the link in its latency (two_cores.xml).
TEST(SimEngineModel, RanksOutnumberingTheCoresCopyTheirMessagesByTheirCpus) {
  constexpr Index kBytes = 1'000'000;
  for (const int ranks : {2, 3}) {
    SimulationOptions options = on("two_cores.xml", ranks, /*phantom=*/true);
    options.rank_hosts.assign(static_cast<std::size_t>(ranks), "node-0");
    const auto out = simulate(options, [&](Transport& t) {
      std::vector<Request> requests;
      if (t.rank() == 0) requests.push_back(t.isend(1, nullptr, kBytes, 0));
      if (t.rank() == 1) requests.push_back(t.irecv(0, nullptr, kBytes, 0));
      t.wait_all(requests);
      return seconds(t.now());
    });
    const double copy = kBytes / (2 * 25e6 / 2);
    const double expected = ranks > 2 ? kSendOverhead + copy + 1e-6 + kRecvOverhead + copy
                                      : kSendOverhead + 1e-6 + kBytes / 100e6 + kRecvOverhead;
    EXPECT_NEAR(seconds_of(out[1]), expected, 1e-9) << ranks;
  }
}

// What calibrate measured to derive the copies' speed comes back out: an all-to-all of two ranks per
// core moves the link's oversubscribed 25 MB/s (two_cores_time_slice.xml: ranks kept to their
// cores, taking them in turn), each core copying its two ranks' messages in and out.
TEST(SimEngineModel, AnAllToAllOfTwoRanksPerCoreMovesTheOversubscribedBandwidth) {
  constexpr Index kBytes = 4'000'000;
  constexpr int kRanks = 4;
  SimulationOptions options = on("two_cores_time_slice.xml", kRanks, /*phantom=*/true);
  options.rank_hosts.assign(kRanks, "node-0");
  const auto out = simulate(options, [&](Transport& t) {
    std::vector<Request> requests;
    for (Rank peer = 0; peer < kRanks; ++peer) {
      if (peer != t.rank()) requests.push_back(t.irecv(peer, nullptr, kBytes, 0));
    }
    for (Rank peer = 0; peer < kRanks; ++peer) {
      if (peer != t.rank()) requests.push_back(t.isend(peer, nullptr, kBytes, 0));
    }
    t.wait_all(requests);
    return seconds(t.now());
  });
  double last = 0;
  for (const auto& s : out) last = std::max(last, seconds_of(s));
  EXPECT_NEAR(kRanks * (kRanks - 1) * kBytes / last / 25e6, 1, 0.01);
}

TEST(NetworkFactors, ParsedInSimGridsSyntaxAndLookedUpBySize) {
  const auto f = PiecewiseCurve::parse("0:1.5;8192:4;65536:0.25", false);
  EXPECT_EQ(f.at(0), 1.5);
  EXPECT_EQ(f.at(8191), 1.5);
  EXPECT_EQ(f.at(8192), 4);
  EXPECT_EQ(f.at(65535.5), 4);
  EXPECT_EQ(f.at(1e12), 0.25);
  EXPECT_EQ(PiecewiseCurve::parse("0:0", true).at(5), 0);  // a latency may vanish
  for (const char* bad : {"", "1:2", "0:1;0:2", "0:1;9:2;5:3", "0:1;8:", "0:x", "0:1;8:-1", "0:1;8:0", "0:1;;8:2",
                          "0:inf", "0:1 "}) {
    EXPECT_THROW(PiecewiseCurve::parse(bad, false), std::invalid_argument) << bad;
  }
}

TEST(SimEngineModel, TwoFlowsSharingALinkTakeTwiceAsLong) {
  constexpr Index kBytes = 1'000'000;
  constexpr double kLatency = 10e-6 + 5e-6 + 10e-6;  // private up, backbone, private down
  const auto alone = run_flows("star4.xml", 4, {{0, 2}}, kBytes);
  const auto shared = run_flows("star4.xml", 4, {{0, 2}, {1, 3}}, kBytes);
  const double overheads = kSendOverhead + kRecvOverhead + kLatency;
  EXPECT_NEAR(alone[2] - overheads, kBytes / 10e6, 1e-6);
  EXPECT_NEAR((shared[2] - overheads) / (alone[2] - overheads), 2.0, 0.01);
  EXPECT_DOUBLE_EQ(shared[2], shared[3]);
}

// Without cross traffic (network/crosstraffic:0) two opposite flows on one shared link split it
// evenly; SimGrid's default would charge each 5% more for the other's acknowledgements.
TEST(SimEngineModel, OppositeFlowsSplitASharedLinkEvenly) {
  constexpr Index kBytes = 1'000'000;
  const auto t = run_flows("two_hosts.xml", 2, {{0, 1}, {1, 0}}, kBytes);
  EXPECT_NEAR(t[0] - kSendOverhead - kRecvOverhead - 50e-6, 2 * kBytes / 10e6, 1e-6);
}

// The committed Paragon: OSF/1's r_inf (35 MB/s) is the node's message software, one per node for both
// directions (platforms/gen_paragon.py). Two neighbours exchanging at once take twice as long as one
// message; two messages of a 4-rank ring in which each node only sends or only receives do not.
TEST(SimEngineModel, ParagonNodeSharesItsMessageLayerBetweenSendAndReceive) {
  constexpr Index kBytes = 3'500'000;  // 0.1 s at r_inf
  const std::string paragon = std::string(REDIST_SOURCE_DIR) + "/platforms/paragon.xml";
  const auto run = [&](std::vector<Flow> flows) {
    SimulationOptions options;
    options.platform_file = paragon;
    options.ranks = 4;
    options.phantom = true;
    const auto out = simulate(options, [&](Transport& t) {
      std::vector<Request> requests;
      for (const Flow& f : flows) {
        if (f.to == t.rank()) requests.push_back(t.irecv(f.from, nullptr, kBytes, 0));
        if (f.from == t.rank()) requests.push_back(t.isend(f.to, nullptr, kBytes, 0));
      }
      t.wait_all(requests);
      return seconds(t.now());
    });
    return seconds_of(out[1]);
  };
  const double one_way = run({{0, 1}});
  const double exchange = run({{0, 1}, {1, 0}});
  const double disjoint = run({{0, 1}, {2, 3}});  // node 1 and node 3 only receive
  EXPECT_NEAR(one_way, 100e-6 + 0.1, 1e-3);      // t0 + n / r_inf
  EXPECT_NEAR(exchange - 100e-6, 2 * 0.1, 2e-3);  // the two directions share 35 MB/s
  EXPECT_NEAR(disjoint, one_way, 1e-6);
}

TEST(SimEngineModel, FatTreeLevelWithHalfTheBandwidthDoublesTheTime) {
  constexpr Index kBytes = 1'000'000;
  const double overheads = kSendOverhead + kRecvOverhead;
  // Within the leaves: each flow has its hosts' links to itself (2 hops).
  const auto local = run_flows("fat_tree.xml", 4, {{0, 1}, {2, 3}}, kBytes);
  // Across the top: both flows of a leaf share its single up-link (4 hops).
  const auto across = run_flows("fat_tree.xml", 4, {{0, 2}, {1, 3}}, kBytes);
  const double local_transfer = local[1] - overheads - 2 * 10e-6;
  const double across_transfer = across[2] - overheads - 4 * 10e-6;
  EXPECT_NEAR(local_transfer, kBytes / 10e6, 1e-6);
  EXPECT_NEAR(across_transfer / local_transfer, 2.0, 0.01);
}

TEST(SimEngineModel, PlatformConfigOverridesTheSimulatorDefaults) {
  constexpr Index kBytes = 1'000'000;
  const auto t = run_flows("small_tcp_window.xml", 2, {{0, 1}}, kBytes);
  // The platform's 500-byte TCP window caps the flow at 500 B / (2 * 50 us) = 5 MB/s.
  EXPECT_NEAR(t[1] - kSendOverhead - kRecvOverhead - 50e-6, kBytes / 5e6, 1e-6);
}

}  // namespace
}  // namespace redist::sim
