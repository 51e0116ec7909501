// Errors of simulated runs: each one line, never a hang or a crash.
#include <gtest/gtest.h>

#include <cstdlib>

#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

std::string idle(Transport&) { return ""; }

TEST(SimEngineErrors, MissingPlatformFile) {
  SimulationOptions options = on("no_such_platform.xml", 2);
  EXPECT_ONE_LINE_CONTAINING(error_of(options, idle), "no_such_platform.xml");
}

TEST(SimEngineErrors, MalformedPlatform) {
  const auto message = error_of(on("malformed.xml", 1), idle);
  EXPECT_ONE_LINE_CONTAINING(message, "malformed.xml:7");
  EXPECT_ONE_LINE_CONTAINING(message, "</host>' expected");
}

// SimGrid 3.32 aborts the process on a routing it does not know ("Not a valid model!"): refused
// from the file's text before SimGrid reads it, with the routings it knows.
TEST(SimEngineErrors, PlatformWhoseRoutingWouldMakeSimGridAbortIsRefusedFirst) {
  const auto message = error_of(on("invalid_routing.xml", 1), idle);
  EXPECT_ONE_LINE_CONTAINING(message, "invalid_routing.xml: zone 'world' has routing=\"Bogus\" (SimGrid knows Full,");
}

// What still makes the simulation's process die (SimGrid's aborts, a rank's own) is one line from
// the parent, which outlives it.
TEST(SimEngineErrors, ARunWhoseProcessAbortsIsOneLine) {
  const auto message = error_of(on("two_hosts.xml", 1), [](Transport&) -> std::string { std::abort(); });
  EXPECT_ONE_LINE_CONTAINING(message, "crashed (signal 6");
}

TEST(SimEngineErrors, MoreRanksThanHosts) {
  EXPECT_ONE_LINE_CONTAINING(error_of(on("two_hosts.xml", 3), idle), "has 2 hosts, too few for 3 ranks");
}

TEST(SimEngineErrors, MalformedNetworkFactorCurve) {
  EXPECT_ONE_LINE_CONTAINING(error_of(on("bad_bandwidth_factors.xml", 2), idle),
                             "zone property redist.bandwidth_factors: values must be positive in '0:1;10000:0'");
}

TEST(SimEngineErrors, OversubscribedBandwidthNotAPositiveNumber) {
  SimulationOptions options = on("bad_oversubscribed_bandwidth.xml", 2);
  options.rank_hosts = {"node-0", "node-0"};  // within its cores: checked all the same
  EXPECT_ONE_LINE_CONTAINING(error_of(options, idle),
                             "link memory has '-5' (not a positive number of bytes per second) in property "
                             "redist.oversubscribed_bandwidth");
}

// SimGrid aborts ("Feature unimplemented yet") when a network model without factor callbacks is given some.
TEST(SimEngineErrors, NetworkFactorsUnderAModelWithoutThem) {
  EXPECT_ONE_LINE_CONTAINING(error_of(on("factors_without_callbacks.xml", 2), idle),
                             "its network/model takes no factor curves");
}

TEST(SimEngineErrors, UnknownRankHost) {
  SimulationOptions options = on("two_hosts.xml", 2);
  options.rank_hosts = {"node-0", "node-7"};
  EXPECT_ONE_LINE_CONTAINING(error_of(options, idle), "has no host node-7 (for rank 1)");
}

TEST(SimEngineErrors, MissingPrice) {
  EXPECT_ONE_LINE_CONTAINING(error_of(on("missing_price.xml", 2), idle),
                             "missing_price.xml: host node-1 lacks property cost.byte_copied");
}

TEST(SimEngineErrors, BodyThrowing) {
  const auto message = error_of(on("star4.xml", 4), [](Transport& t) -> std::string {
    if (t.rank() == 2) throw std::invalid_argument("boom");
    t.barrier();  // the others would wait forever for rank 2
    return "";
  });
  EXPECT_EQ(message, "rank 2: boom");
}

TEST(SimEngineErrors, DeadlockIsReportedNotHung) {
  const auto message = error_of(on("two_hosts.xml", 2), [](Transport& t) {
    Request r = t.irecv(1 - t.rank(), nullptr, 0, 9);  // both receive, nobody sends
    t.wait_all(one(r));
    return std::string();
  });
  EXPECT_ONE_LINE_CONTAINING(message, "deadlock");
  EXPECT_ONE_LINE_CONTAINING(message, "rank 0 in wait_all for a receive from rank 1 (tag 9)");
}

TEST(SimEngineErrors, ReturningWithPendingRequests) {
  const auto message = error_of(on("two_hosts.xml", 2, /*phantom=*/true), [](Transport& t) {
    if (t.rank() == 0) t.isend(1, nullptr, 10, 0);
    return std::string();
  });
  EXPECT_ONE_LINE_CONTAINING(message, "rank 0: returned with 1 requests not completed");
}

}  // namespace
}  // namespace redist::sim
