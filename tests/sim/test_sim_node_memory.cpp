// The node's memory as a shared resource (redist/transport/node_memory.hpp): copies that overlap in
// time share the node's bandwidth, each held to one core's, so k ranks copying W bytes each at once
// copy at min(c(W), M(W) / k); what a rank copies alone keeps c(W). node_memory.xml: c = 20, 12,
// 6 GB/s and M = 60, 30, 15 GB/s from 0, 64 KiB and 4 MiB.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include "redist/sim/node_memory_hosts.hpp"
#include "redist/transport/node_memory.hpp"
#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

const NodeMemory kMemory{PiecewiseCurve::parse("0:2e10;65536:1.2e10;4194304:6e9", false),
                         PiecewiseCurve::parse("0:6e10;65536:3e10;4194304:1.5e10", false)};

// Seconds each of `ranks` ranks on node_memory.xml's one host takes to copy bytes[rank] (all start at 0).
std::vector<double> copy_seconds(const std::vector<Index>& bytes) {
  SimulationOptions options = on("node_memory.xml", static_cast<int>(bytes.size()), /*phantom=*/true);
  options.rank_hosts.assign(bytes.size(), "node-0");
  const auto out = simulate(options, [&](Transport& t) {
    t.charge(Work(WorkKind::ByteCopied, bytes[static_cast<std::size_t>(t.rank())]));
    return seconds(t.now());
  });
  std::vector<double> times;
  for (const std::string& s : out) times.push_back(seconds_of(s));
  return times;
}

TEST(SimNodeMemory, RanksCopyingAtOnceShareTheNodesBandwidthEachHeldToOneCore) {
  // Every piece of the curves, 1 to 4 ranks: one core's bandwidth until the node's runs short.
  for (const Index bytes : {Index{4096}, Index{1} << 20, Index{64} << 20}) {
    for (int ranks = 1; ranks <= 4; ++ranks) {
      const double expected = static_cast<double>(bytes) / kMemory.rank_bandwidth(static_cast<double>(bytes), ranks);
      for (const double t : copy_seconds(std::vector<Index>(static_cast<std::size_t>(ranks), bytes))) {
        EXPECT_NEAR(t / expected, 1, 1e-6) << bytes << " bytes, " << ranks << " ranks";
      }
    }
  }
  // Beyond 4 MiB: 6 GB/s alone and for 2 ranks (15 / 2 > 6), 5 for 3, 3.75 for 4.
  EXPECT_NEAR(copy_seconds({Index{6} << 20, Index{6} << 20, Index{6} << 20})[0], (6 << 20) / 5e9, 1e-9);
}

// The closed form against the simulation on random sizes and rank counts.
TEST(SimNodeMemory, RandomCopiesAtOnceTakeTheClosedFormsTime) {
  std::mt19937_64 random(46);
  for (int trial = 0; trial < 24; ++trial) {
    const int ranks = std::uniform_int_distribution<int>(1, 4)(random);
    const auto bytes = static_cast<Index>(std::exp(std::uniform_real_distribution<double>(std::log(100.0), std::log(3e8))(random)));
    const double expected = static_cast<double>(bytes) / kMemory.rank_bandwidth(static_cast<double>(bytes), ranks);
    const auto times = copy_seconds(std::vector<Index>(static_cast<std::size_t>(ranks), bytes));
    for (const double t : times) EXPECT_NEAR(t / expected, 1, 1e-6) << bytes << " bytes, " << ranks << " ranks";
  }
}

// Copies of different lengths: the shorter ends first and the longer then runs faster. Two ranks of
// 64 MiB and 32 MiB: both at 6 GB/s (the node's 15 exceed two cores'), so the share never binds; four
// ranks, one copying twice as much: 3.75 GB/s each until the three short ones end, then 6 alone.
TEST(SimNodeMemory, AShorterCopyEndingLeavesTheRestMoreOfTheNode) {
  const Index w = Index{32} << 20;
  const auto two = copy_seconds({2 * w, w});
  EXPECT_NEAR(two[0], 2 * w / 6e9, 1e-9);
  EXPECT_NEAR(two[1], w / 6e9, 1e-9);
  const auto four = copy_seconds({2 * w, w, w, w});
  const double short_end = w / 3.75e9;
  EXPECT_NEAR(four[1], short_end, 1e-9);
  EXPECT_NEAR(four[0], short_end + w / 6e9, 1e-9);
}

// Only the bytes go through the memory: the other work of the same charge keeps its prices.
TEST(SimNodeMemory, OtherWorkOfACopyKeepsItsPrice) {
  SimulationOptions options = on("node_memory.xml", 1, true);
  const auto out = simulate(options, [](Transport& t) {
    t.charge(Work(WorkKind::ByteCopied, Index{8} << 20).add(WorkKind::RunCopied, 1000));
    return seconds(t.now());
  });
  EXPECT_NEAR(seconds_of(out[0]), (8 << 20) / 6e9 + 1000 * 5e-8, 1e-9);
}

std::string platform_text() {
  std::ifstream in(platform("node_memory.xml"));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// node_memory.xml with the properties `extra` added to its host, written under `name` in a directory of this test's.
std::string with_properties(const std::string& name, const std::string& extra) {
  const auto dir = std::filesystem::temp_directory_path() / ("redist-node-memory-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string text = platform_text();
  const auto at = text.find("<prop id=\"memory.node_bandwidth\"");
  std::ofstream(dir / name) << text.substr(0, at) << extra << text.substr(at);
  return (dir / name).string();
}

// A pack's loop, an unpack's and a sweep's each take their factor times the memory's time for their
// bytes, two ranks copying at once as one; the other work of the charge keeps its prices. A host
// that declares no sweep factor prices a sweep as an unpack.
TEST(SimNodeMemory, EachLoopTakesItsFactorOnTheMemorysTime) {
  const std::string factors = "<prop id=\"memory.pack_factor\" value=\"1.5\"/><prop id=\"memory.unpack_factor\" value=\"1.25\"/>";
  const Index bytes = Index{8} << 20;
  const auto run = [&](const std::string& platform, CopyLoop first, CopyLoop second) {
    SimulationOptions options = on("node_memory.xml", 2, true);
    options.rank_hosts.assign(2, "node-0");
    options.platform_file = platform;
    const auto out = simulate(options, [&](Transport& t) {
      const Work work = Work(WorkKind::ByteCopied, bytes).add(WorkKind::RunCopied, 1000);
      const CopyLoop loop = t.rank() == 0 ? first : second;
      if (loop == CopyLoop::Pack) {
        t.charge(work);
      } else {
        t.charge_unpack(work, loop);
      }
      return seconds(t.now());
    });
    return std::pair{seconds_of(out[0]), seconds_of(out[1])};
  };
  // 6 GB/s each: the node's 15 exceed two cores' whatever the factors (the loops hold their cores longer).
  const auto [pack, sweep_as_unpack] = run(with_properties("factors.xml", factors), CopyLoop::Pack, CopyLoop::UnpackSweep);
  EXPECT_NEAR(pack, 1000 * 5e-8 + 1.5 * bytes / 6e9, 1e-9);
  EXPECT_NEAR(sweep_as_unpack, 1000 * 5e-8 + 1.25 * bytes / 6e9, 1e-9);
  const auto [unpack, sweep] = run(with_properties("sweep-factor.xml", factors + "<prop id=\"memory.sweep_factor\" value=\"1.75\"/>"),
                                   CopyLoop::Unpack, CopyLoop::UnpackSweep);
  EXPECT_NEAR(unpack, 1000 * 5e-8 + 1.25 * bytes / 6e9, 1e-9);
  EXPECT_NEAR(sweep, 1000 * 5e-8 + 1.75 * bytes / 6e9, 1e-9);
  NodeMemory memory = kMemory;
  memory.pack_factor = 1.5;
  memory.unpack_factor = 1.25;
  EXPECT_DOUBLE_EQ(memory.copy_seconds(bytes, 2, CopyLoop::Unpack), 1.25 * bytes / 6e9);
  EXPECT_DOUBLE_EQ(memory.copy_seconds(bytes, 2, CopyLoop::UnpackSweep), 1.25 * bytes / 6e9);
  EXPECT_DOUBLE_EQ(memory.copy_seconds(bytes, 2), 1.5 * bytes / 6e9);
  memory.sweep_factor = 1.75;
  EXPECT_DOUBLE_EQ(memory.copy_seconds(bytes, 2, CopyLoop::UnpackSweep), 1.75 * bytes / 6e9);
}

// A factor that is not a positive number is one error line naming host and property.
TEST(SimNodeMemory, ALoopFactorThatIsNotPositiveIsOneErrorLine) {
  const auto idle = [](Transport&) { return std::string(); };
  for (const char* property : {"memory.unpack_factor", "memory.sweep_factor"}) {
    for (const char* value : {"0", "-1", "fast"}) {
      SimulationOptions options = on("node_memory.xml", 1);
      options.platform_file = with_properties(
          "bad-factor.xml", std::string("<prop id=\"") + property + "\" value=\"" + value + "\"/>");
      EXPECT_ONE_LINE_CONTAINING(error_of(options, idle), std::string("host node-0 property ") + property + ": '" + value +
                                                              "' is not a positive factor");
    }
  }
}

// A curve that is malformed, or one without the other, is one error line naming host and property.
TEST(SimNodeMemory, AMalformedOrLoneCurveIsOneErrorLine) {
  const std::string text = platform_text();
  const auto dir = std::filesystem::temp_directory_path() / ("redist-node-memory-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::ofstream(dir / name) << std::regex_replace(text, std::regex(from), to);
    SimulationOptions options = on("node_memory.xml", 1);
    options.platform_file = (dir / name).string();
    return options;
  };
  const auto idle = [](Transport&) { return std::string(); };
  EXPECT_ONE_LINE_CONTAINING(error_of(write("bad.xml", "0:6e10;", "0:-6e10;"), idle),
                             "host node-0 property memory.node_bandwidth: values must be positive");
  EXPECT_ONE_LINE_CONTAINING(error_of(write("lone.xml", "<prop id=\"memory.node_bandwidth\"[^>]*>", ""), idle),
                             "host node-0 declares memory.copy_bandwidth without memory.node_bandwidth");
  std::filesystem::remove_all(dir);
}

// A copy in a call that touches more than twice its bytes is read where the curves put that call's
// memory: 64 KiB copied in a call touching 16 MiB streams at the 4 MiB piece's bandwidths (6 GB/s
// alone), not at the 64 KiB copy's own (12 GB/s); a call touching less than twice its copy keeps
// the copy's own W.
TEST(NodeMemory, ACopyIsPricedAtHalfOfWhatItsCallTouchesWhereThatIsMore) {
  EXPECT_DOUBLE_EQ(kMemory.copy_seconds(65536, 1, CopyLoop::Pack, 16 << 20), 65536 / 6e9);
  EXPECT_DOUBLE_EQ(kMemory.copy_seconds(65536, 1, CopyLoop::Pack, 65536), 65536 / 1.2e10);
  EXPECT_DOUBLE_EQ(kMemory.copy_seconds(65536, 1), 65536 / 1.2e10);
  EXPECT_DOUBLE_EQ(kMemory.copy_seconds(65536, 4, CopyLoop::Pack, 16 << 20), 65536 / 3.75e9);  // M(W) / 4
}

// Between two measured sizes the curves are read geometrically: at the geometric mean of 64 KiB
// and 4 MiB (512 KiB), the geometric mean of their values; at a start, its value; before the
// second start and past the last, held. A random size against its closed form.
TEST(NodeMemory, CurvesAreReadGeometricallyBetweenTheirPoints) {
  EXPECT_DOUBLE_EQ(kMemory.alone(512 << 10), std::sqrt(1.2e10 * 6e9));
  EXPECT_DOUBLE_EQ(kMemory.together(512 << 10), std::sqrt(3e10 * 1.5e10));
  EXPECT_DOUBLE_EQ(kMemory.alone(65536), 1.2e10);
  EXPECT_DOUBLE_EQ(kMemory.alone(1000), 2e10);
  EXPECT_DOUBLE_EQ(kMemory.alone(64 << 20), 6e9);
  std::mt19937_64 random(47);
  for (int trial = 0; trial < 20; ++trial) {
    const double w = std::exp(std::uniform_real_distribution<double>(std::log(65536.0), std::log(4194304.0))(random));
    const double fraction = std::log(w / 65536) / std::log(64.0);
    EXPECT_NEAR(kMemory.alone(w) / (1.2e10 * std::pow(0.5, fraction)), 1, 1e-12) << w;
  }
}

// The simulator prices a rank's copies by the touched bytes its options give it.
TEST(SimNodeMemory, ARanksCopiesArePricedByWhatItsCallTouches) {
  const auto copy_in_call = [](std::vector<double> touched) {
    SimulationOptions options = on("node_memory.xml", 1, /*phantom=*/true);
    options.rank_hosts = {"node-0"};
    options.touched_bytes = std::move(touched);
    return seconds_of(simulate(options, [](Transport& t) {
      t.charge(Work(WorkKind::ByteCopied, 65536));
      return seconds(t.now());
    })[0]);
  };
  EXPECT_NEAR(copy_in_call({16 << 20}) / (65536 / 6e9), 1, 1e-6);
  EXPECT_NEAR(copy_in_call({}) / (65536 / 1.2e10), 1, 1e-6);
}

// The model of measured copies: one rank's bandwidth, and the most that any number copied together.
TEST(NodeMemory, FromMeasurementsTakesOneRanksAndTheMostTogether) {
  const NodeMemory m = NodeMemory::from_measurements({{1, 4096, 20e9}, {2, 4096, 19e9}, {4, 4096, 15e9},
                                                      {1, 1 << 20, 8e9}, {2, 1 << 20, 7e9}, {4, 1 << 20, 3e9}});
  EXPECT_EQ(m.copy_bandwidth.text(), "0:2e+10;1048576:8e+09");
  EXPECT_EQ(m.node_bandwidth.text(), "0:6e+10;1048576:1.4e+10");
  EXPECT_DOUBLE_EQ(m.rank_bandwidth(1 << 20, 4), 3.5e9);
  EXPECT_THROW(NodeMemory::from_measurements({{2, 4096, 1e9}}), std::invalid_argument);  // no one-rank row
  EXPECT_THROW(NodeMemory::from_measurements({{1, 4096, 0}}), std::invalid_argument);
}

}  // namespace
}  // namespace redist::sim
