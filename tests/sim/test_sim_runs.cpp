// Whole simulated runs: deterministic, ranks sharing hosts, quiet output, trace files.
#include <gtest/gtest.h>

#include <filesystem>

#include "../temp_dir.hpp"
#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

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
  const test::TempDir dir("redist-test-sim-engine");
  const auto trace = dir / "run.trace";
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
}

}  // namespace
}  // namespace redist::sim
