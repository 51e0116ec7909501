// The SimGrid engine and transport: network model sanity, MPI-like semantics, payloads, the cost
// model, errors and determinism. Each simulate() forks one child; the platforms are in
// data/platforms/ (prices: see two_hosts.xml).
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "redist/sim/engine.hpp"

namespace redist::sim {
namespace {

constexpr double kSendOverhead = 2e-5;  // cost.send_overhead of every test platform
constexpr double kRecvOverhead = 3e-5;  // cost.recv_overhead

std::string platform(const char* name) { return std::string(REDIST_TEST_DATA) + "/platforms/" + name; }

SimulationOptions on(const char* name, int ranks, bool phantom = false) {
  SimulationOptions options;
  options.platform_file = platform(name);
  options.ranks = ranks;
  options.phantom = phantom;
  return options;
}

// Simulated times travel back as text: round-trip exact.
std::string seconds(double t) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", t);
  return text;
}
double seconds_of(const std::string& text) { return std::stod(text); }

std::string error_of(const SimulationOptions& options, const RankBody& body) {
  try {
    simulate(options, body);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "simulate() did not throw";
  return {};
}

#define EXPECT_ONE_LINE_CONTAINING(message, part)                        \
  do {                                                                   \
    const std::string m_ = (message);                                    \
    EXPECT_NE(m_.find(part), std::string::npos) << m_;                   \
    EXPECT_EQ(m_.find('\n'), std::string::npos) << "not one line: " << m_; \
  } while (0)

std::span<Request> one(Request& r) { return {&r, 1}; }

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

// ---- network model ----------------------------------------------------------------------------

TEST(SimEngineModel, OneMessageTakesLatencyPlusSizeOverBandwidthPlusOverheads) {
  constexpr Index kBytes = 1'000'000;
  const auto t = run_flows("two_hosts.xml", 2, {{0, 1}}, kBytes);
  const double wire = 50e-6 + kBytes / 10e6;
  EXPECT_NEAR(t[0], kSendOverhead + wire, 1e-6 * t[0]);
  EXPECT_NEAR(t[1], kSendOverhead + wire + kRecvOverhead, 1e-6 * t[1]);
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

// ---- messages -------------------------------------------------------------------------------------

TEST(SimEngineMessages, AnySourceReceiveReportsSenderAndSize) {
  const auto out = simulate(on("star4.xml", 3), [](Transport& t) -> std::string {
    if (t.rank() != 0) {
      const std::vector<std::byte> data(static_cast<std::size_t>(t.rank() * 100), std::byte(t.rank()));
      Request r = t.isend(0, data.data(), static_cast<Index>(data.size()), 5);
      t.wait_all(one(r));
      return "";
    }
    std::array<std::vector<std::byte>, 2> buffers{std::vector<std::byte>(300), std::vector<std::byte>(300)};
    std::array<Request, 2> requests{};
    for (std::size_t i = 0; i < 2; ++i) requests[i] = t.irecv(kAnySource, buffers[i].data(), 300, 5);
    std::string seen;
    for (int n = 0; n < 2; ++n) {
      const Completion c = t.wait_any(requests);
      const auto& b = buffers[c.index];
      const bool filled = std::all_of(b.begin(), b.begin() + c.bytes, [&](std::byte x) { return x == std::byte(c.source); });
      seen += std::to_string(c.source) + ":" + std::to_string(c.bytes) + (filled ? " " : "! ");
    }
    return seen;
  });
  // Rank 1's 100 bytes arrive before rank 2's 200 bytes.
  EXPECT_EQ(out[0], "1:100 2:200 ");
}

TEST(SimEngineMessages, TagsSelectTheMessage) {
  const auto out = simulate(on("two_hosts.xml", 2), [](Transport& t) -> std::string {
    if (t.rank() == 1) {
      const std::array<std::byte, 2> data{std::byte{'a'}, std::byte{'b'}};
      std::array<Request, 2> r{t.isend(0, &data[0], 1, 10), t.isend(0, &data[1], 1, 20)};
      t.wait_all(r);
      return "";
    }
    std::array<std::byte, 2> got{};
    std::array<Request, 2> r{t.irecv(1, &got[0], 1, 20), t.irecv(1, &got[1], 1, 10)};
    t.wait_all(r);
    return {static_cast<char>(got[0]), static_cast<char>(got[1])};
  });
  EXPECT_EQ(out[0], "ba");
}

// Message i is big, message i+1 four times smaller: the later ones arrive first, yet the i-th
// receive posted must get the i-th message sent, whichever side posts first.
TEST(SimEngineMessages, MessagesBetweenAPairWithOneTagDoNotOvertake) {
  for (const bool receives_first : {true, false}) {
    const auto out = simulate(on("two_hosts.xml", 2), [&](Transport& t) -> std::string {
      constexpr int kMessages = 5;
      const Work one_ms(WorkKind::IndexOp, 100'000);
      if (t.rank() == 1) {
        if (receives_first) t.charge(one_ms);
        std::vector<std::vector<std::byte>> data;
        std::vector<Request> r;
        for (int i = 0; i < kMessages; ++i) {
          data.emplace_back(static_cast<std::size_t>(10'000 >> (2 * i)), std::byte(i));
          r.push_back(t.isend(0, data.back().data(), static_cast<Index>(data.back().size()), 1));
        }
        t.wait_all(r);
        return "";
      }
      if (!receives_first) t.charge(one_ms);
      std::vector<std::vector<std::byte>> buffers(kMessages, std::vector<std::byte>(10'000));
      std::vector<Request> r;
      for (auto& b : buffers) r.push_back(t.irecv(kAnySource, b.data(), 10'000, 1));
      std::string completions;
      for (int i = 0; i < kMessages; ++i) completions += std::to_string(t.wait_any(r).index);
      std::string matched;
      for (const auto& b : buffers) matched += std::to_string(static_cast<int>(b[0]));
      return matched + " " + completions;
    });
    EXPECT_EQ(out[0], "01234 43210") << (receives_first ? "receives posted first" : "sends posted first");
  }
}

TEST(SimEngineMessages, WaitAnyReturnsMessagesInArrivalOrder) {
  for (const bool late_wait : {false, true}) {
    const auto out = simulate(on("star4.xml", 3, /*phantom=*/true), [&](Transport& t) -> std::string {
      if (t.rank() != 0) {
        // Rank 1 sends 100 kB, rank 2 only 1 kB: rank 2's message arrives first.
        Request r = t.isend(0, nullptr, t.rank() == 1 ? 100'000 : 1'000, 0);
        t.wait_all(one(r));
        return "";
      }
      std::array<Request, 2> r{t.irecv(1, nullptr, 100'000, 0), t.irecv(2, nullptr, 100'000, 0)};
      // Waiting only after both arrived must still report them in arrival order.
      if (late_wait) t.charge(Work(WorkKind::IndexOp, 10'000'000));  // 0.1 s
      const Completion first = t.wait_any(r);
      const Completion second = t.wait_any(r);
      EXPECT_EQ(r[0], kNullRequest);
      EXPECT_EQ(r[1], kNullRequest);
      return std::to_string(first.index) + std::to_string(first.source) + std::to_string(second.index) +
             std::to_string(second.source);
    });
    EXPECT_EQ(out[0], "1201") << (late_wait ? "waiting late" : "waiting early");
  }
}

TEST(SimEngineMessages, WaitAllCompletesSendsAndReceives) {
  const auto out = simulate(on("star4.xml", 4), [](Transport& t) {
    // Everyone sends its rank to everyone else.
    const auto me = static_cast<std::byte>(t.rank());
    std::vector<std::byte> got(4, std::byte{0xff});
    std::vector<Request> r;
    for (Rank p = 0; p < t.size(); ++p) {
      if (p == t.rank()) continue;
      r.push_back(t.irecv(p, &got[static_cast<std::size_t>(p)], 1, 0));
      r.push_back(t.isend(p, &me, 1, 0));
    }
    t.wait_all(r);
    std::string s;
    for (std::size_t p = 0; p < got.size(); ++p) s += p == static_cast<std::size_t>(t.rank()) ? '.' : char('0' + int(got[p]));
    return s + (std::all_of(r.begin(), r.end(), [](Request x) { return x == kNullRequest; }) ? "" : " pending");
  });
  EXPECT_EQ(out, (std::vector<std::string>{".123", "0.23", "01.3", "012."}));
}

// Rank r works r ms, then all meet: nobody leaves before the last has arrived.
std::vector<double> barrier_exits(const char* platform_name, int ranks) {
  const auto out = simulate(on(platform_name, ranks), [](Transport& t) {
    t.charge(Work(WorkKind::IndexOp, 100'000 * t.rank()));  // r ms at 10 ns per index op
    t.barrier();
    return seconds(t.now());
  });
  std::vector<double> exits;
  for (const auto& s : out) exits.push_back(seconds_of(s));
  return exits;
}

TEST(SimEngineMessages, BarrierWaitsForTheLastRankAndCostsItsMessages) {
  constexpr double kLatency = 25e-6;
  for (const int ranks : {3, 4}) {
    const auto exits = barrier_exits("star4.xml", ranks);
    const double last_entry = (ranks - 1) * 1e-3;
    // The last rank receives one message in each of the 2 rounds; everyone else leaves only after a
    // message chain from the last rank has reached it.
    EXPECT_GE(exits.back(), last_entry + 2 * (kLatency + kRecvOverhead) - 1e-12) << ranks << " ranks";
    for (double e : exits) EXPECT_GE(e, last_entry + kSendOverhead + kLatency + kRecvOverhead - 1e-12);
    for (double e : exits) EXPECT_LT(e, last_entry + 1e-3);
  }
}

TEST(SimEngineMessages, ControlNetworkBarrierCostsItsLatency) {
  const auto exits = barrier_exits("control_network.xml", 4);
  for (double e : exits) EXPECT_NEAR(e, 3e-3 + 4e-6, 1e-12);
}

// ---- payloads ------------------------------------------------------------------------------------

// An all-to-all of distinct sizes and contents; real runs return a digest of what arrived.
RankBody all_to_all(bool check_bytes) {
  return [check_bytes](Transport& t) {
    const Rank p = t.size();
    const auto size_to = [&](Rank from, Rank to) { return static_cast<Index>(1000 * (from + 1) + 37 * to); };
    std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(p)), in(static_cast<std::size_t>(p));
    std::vector<Request> r;
    for (Rank q = 0; q < p; ++q) {
      if (q == t.rank()) continue;
      auto& o = out[static_cast<std::size_t>(q)];
      auto& i = in[static_cast<std::size_t>(q)];
      if (!t.phantom()) {
        o.resize(static_cast<std::size_t>(size_to(t.rank(), q)));
        for (std::size_t k = 0; k < o.size(); ++k) o[k] = std::byte((k * 7 + static_cast<std::size_t>(t.rank())) & 0xff);
        i.resize(static_cast<std::size_t>(size_to(q, t.rank())));
      }
      r.push_back(t.irecv(q, i.data(), size_to(q, t.rank()), 3));
      r.push_back(t.isend(q, o.data(), size_to(t.rank(), q), 3));
    }
    t.wait_all(r);
    std::string result = seconds(t.now());
    if (check_bytes && !t.phantom()) {
      bool ok = true;
      for (Rank q = 0; q < p; ++q) {
        const auto& i = in[static_cast<std::size_t>(q)];
        for (std::size_t k = 0; k < i.size(); ++k) ok = ok && i[k] == std::byte((k * 7 + static_cast<std::size_t>(q)) & 0xff);
      }
      result += ok ? " verified" : " CORRUPT";
    }
    return result;
  };
}

TEST(SimEnginePayload, RealBytesArriveIntact) {
  const auto out = simulate(on("star4.xml", 4), all_to_all(true));
  for (const auto& s : out) EXPECT_NE(s.find(" verified"), std::string::npos) << s;
}

TEST(SimEnginePayload, PhantomRunTakesTheSameSimulatedTimeAsTheRealOne) {
  const auto real = simulate(on("star4.xml", 4, /*phantom=*/false), all_to_all(false));
  const auto phantom = simulate(on("star4.xml", 4, /*phantom=*/true), all_to_all(false));
  EXPECT_EQ(real, phantom);
}

TEST(SimEnginePayload, MessageLargerThanTheReceiveIsAnError) {
  const auto message = error_of(on("two_hosts.xml", 2), [](Transport& t) {
    std::array<std::byte, 8> buffer{};
    Request r = t.rank() == 0 ? t.isend(1, buffer.data(), 8, 0) : t.irecv(0, buffer.data(), 4, 0);
    t.wait_all(one(r));
    return std::string();
  });
  EXPECT_ONE_LINE_CONTAINING(message, "rank 1: message of 8 bytes from rank 0 (tag 0) exceeds the receive capacity of 4");
}

// ---- cost model ----------------------------------------------------------------------------------

TEST(SimEngineCost, ChargeAdvancesTheClockByThePricedAmount) {
  const auto out = simulate(on("two_hosts.xml", 2), [](Transport& t) {
    Work work;
    work.add(WorkKind::IndexOp, 1000)
        .add(WorkKind::TableEntry, 200)
        .add(WorkKind::Intersection, 30)
        .add(WorkKind::ElementScanned, 4000)
        .add(WorkKind::ByteCopied, 50000)
        .add(WorkKind::RunCopied, 6);
    const double before = t.now();
    t.charge(work);
    return seconds(t.now() - before);
  });
  const double priced = 1000 * 1e-8 + 200 * 2e-8 + 30 * 4e-8 + 4000 * 3e-9 + 50000 * 1e-9 + 6 * 5e-8;
  // node-0 computes at 1 Gflop/s and node-1 at 2: the price is in seconds on either.
  EXPECT_NEAR(seconds_of(out[0]), priced, 1e-12);
  EXPECT_NEAR(seconds_of(out[1]), priced, 1e-12);
}

// ---- errors --------------------------------------------------------------------------------------

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

// SimGrid aborts on some platform mistakes (here a tag it removed long ago): the child dies, and
// the parent still reports one line.
TEST(SimEngineErrors, PlatformThatMakesSimGridAbort) {
  const auto message = error_of(on("removed_tag.xml", 1), idle);
  EXPECT_ONE_LINE_CONTAINING(message, "removed_tag.xml crashed (signal 6");
  EXPECT_ONE_LINE_CONTAINING(message, "<include> tag was removed");
}

TEST(SimEngineErrors, MoreRanksThanHosts) {
  EXPECT_ONE_LINE_CONTAINING(error_of(on("two_hosts.xml", 3), idle), "has 2 hosts, too few for 3 ranks");
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

// ---- whole runs ----------------------------------------------------------------------------------

TEST(SimEngineRuns, IdenticalInputsGiveIdenticalResults) {
  const auto any_source_exchange = [](Transport& t) {
    std::string log;
    if (t.rank() == 0) {
      std::vector<Request> r;
      for (Rank p = 1; p < t.size(); ++p) r.push_back(t.irecv(kAnySource, nullptr, 1 << 20, 0));
      for (Rank p = 1; p < t.size(); ++p) {
        const Completion c = t.wait_any(r);
        log += std::to_string(c.source) + "@" + seconds(t.now()) + " ";
      }
    } else {
      Request r = t.isend(0, nullptr, 5000 * (t.size() - t.rank()), 0);
      t.wait_all(one(r));
    }
    t.barrier();
    return log + seconds(t.now());
  };
  const auto first = simulate(on("star4.xml", 4, true), any_source_exchange);
  const auto second = simulate(on("star4.xml", 4, true), any_source_exchange);
  EXPECT_EQ(first, second);
}

TEST(SimEngineRuns, RanksMayShareAHost) {
  SimulationOptions options = on("two_hosts.xml", 3);
  options.rank_hosts = {"node-0", "node-0", "node-1"};
  const auto out = simulate(options, [](Transport& t) {
    t.charge(Work(WorkKind::IndexOp, 100'000));  // 1 ms each; ranks 0 and 1 share node-0's core
    return seconds(t.now());
  });
  EXPECT_NEAR(seconds_of(out[0]), 2e-3, 1e-12);
  EXPECT_NEAR(seconds_of(out[2]), 1e-3, 1e-12);
}

TEST(SimEngineRuns, SuccessfulRunKeepsStdoutAndStderrClean) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  simulate(on("star4.xml", 4), all_to_all(true));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
}

TEST(SimEngineRuns, TraceFileIsWrittenQuietly) {
  const auto trace = std::filesystem::temp_directory_path() / ("redist_test_sim_engine-" + std::to_string(::getpid()) + ".trace");
  std::filesystem::remove(trace);
  SimulationOptions options = on("two_hosts.xml", 2, true);
  options.trace_file = trace.string();
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  simulate(options, [](Transport& t) {
    Request r = t.rank() == 0 ? t.isend(1, nullptr, 1000, 0) : t.irecv(0, nullptr, 1000, 0);
    t.wait_all(one(r));
    return std::string();
  });
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  ASSERT_TRUE(std::filesystem::exists(trace));
  EXPECT_GT(std::filesystem::file_size(trace), 0U);
  std::filesystem::remove(trace);
}

}  // namespace
}  // namespace redist::sim
