// What the tests of the SimGrid engine and transport share: the test platforms (data/platforms/,
// prices: see two_hosts.xml), simulated times sent back as text, expected one-line errors.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/sim/engine.hpp"

namespace redist::sim::engine_test {

inline constexpr double kSendOverhead = 2e-5;  // cost.send_overhead of every test platform
inline constexpr double kRecvOverhead = 3e-5;  // cost.recv_overhead

inline std::string platform(const char* name) { return std::string(REDIST_TEST_DATA) + "/platforms/" + name; }

inline SimulationOptions on(const char* name, int ranks, bool phantom = false) {
  SimulationOptions options;
  options.platform_file = platform(name);
  options.ranks = ranks;
  options.phantom = phantom;
  return options;
}

// Simulated times travel back as text: round-trip exact.
inline std::string seconds(double t) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", t);
  return text;
}
inline double seconds_of(const std::string& text) { return std::stod(text); }

inline std::string error_of(const SimulationOptions& options, const RankBody& body) {
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

inline std::span<Request> one(Request& r) { return {&r, 1}; }

// An all-to-all of distinct sizes and contents; real runs return a digest of what arrived.
inline RankBody all_to_all(bool check_bytes) {
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

}  // namespace redist::sim::engine_test
