// MPI-like message semantics on the simulator: any-source receives, tags, no overtaking, wait_any
// in arrival order, wait_all, barriers.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

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

}  // namespace
}  // namespace redist::sim
