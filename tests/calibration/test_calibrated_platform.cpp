// The platform `redist calibrate` writes, read back by the reader `redist fit` edits platforms with:
// the fitted latency and the all-to-all's bandwidth on the shared link, the host's cores, and the
// fitted prices of local work on it; the machine model's file beside the platform.
#include <gtest/gtest.h>

#include "redist/calibration/calibrated_platform.hpp"
#include "redist/calibration/core_sharing_measurements.hpp"
#include "redist/calibration/platform_values.hpp"

namespace redist::calibration {
namespace {

// One-way times of a line: 2 us + bytes / 1 GB/s, on sizes 1 B to 1 MiB.
NetworkMeasurements measured_line() {
  NetworkMeasurements n;
  for (Index bytes = 1; bytes <= (Index{1} << 20); bytes *= 4) {
    n.bytes.push_back(bytes);
    n.seconds.push_back(2e-6 + static_cast<double>(bytes) * 1e-9);
  }
  n.fit = fit_piecewise(n.bytes, n.seconds, 3);
  n.latency = n.fit.pieces.front().intercept;
  n.bandwidth = 1 / n.fit.pieces.back().slope;
  n.exchange = {4, Index{1} << 20, 3e9};
  n.oversubscribed = {{6, Index{1} << 19, 1.2e9}, {8, Index{1} << 19, 1.5e9}};
  return n;
}

LocalWork copy_prices() {
  LocalWork w;
  w.byte_copied = 2.5e-10;
  w.run_copied = 3e-8;
  w.record_copied = 1e-8;
  return w;
}

TEST(CalibratedPlatform, ReadsBackWhatWasMeasured) {
  const NetworkMeasurements network = measured_line();
  const LocalWork work = copy_prices();
  const std::vector<double> prices = {1e-9, 2e-9, 3e-9, 4e-9, 5e-9};  // kIndexKinds order
  // Packing at once: 1 ms at one rank per core; 6 ranks on 4 cores (two turns on the busiest core)
  // 3 ms, 8 ranks 5 ms: 1.5 and 2.5 times what taking turns gives. Building the plan: 2, 5 and 8 ms,
  // 1.25 and 2 times.
  const std::vector<SharedCopy> shared = {{4, 1e6, 1e-3, 2e-3}, {6, 1e6, 3e-3, 5e-3}, {8, 1e6, 5e-3, 8e-3}};
  const std::string report = calibration_report(network, work, prices, shared, 4);
  const PlatformFile platform(calibrated_platform_xml(4, network, work, prices, shared, report));
  EXPECT_NE(platform.text().find("<prop id=\"redist.copy_slowdown\" value=\"0:1.5;2:2.5\"/>"), std::string::npos)
      << platform.text();
  EXPECT_NE(platform.text().find("<prop id=\"redist.work_slowdown\" value=\"0:1.25;2:2\"/>"), std::string::npos)
      << platform.text();
  // A sharedcopy that did not time the plan's building: no work slowdown.
  EXPECT_TRUE(work_slowdown_curve({{4, 1e6, 1e-3}, {6, 1e6, 3e-3}}, 4).empty());
  EXPECT_NE(platform.text().find("<prop id=\"redist.oversubscribed_bandwidths\" value=\"0:1.2e+09;2:1.5e+09\"/>"),
            std::string::npos)
      << platform.text();
  EXPECT_NE(platform.text().find(report), std::string::npos);
  EXPECT_NE(platform.text().find("core=\"4\""), std::string::npos);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::LinkBandwidth, "memory"}), 3e9, 3e9 * 1e-5);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::LinkLatency, "memory"}), 2e-6, 2e-6 * 1e-3);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.byte_copied"}), 2.5e-10, 1e-15);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.record_copied"}), 1e-8, 1e-13);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.index_op"}), 1e-9, 1e-14);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.run_listed"}), 5e-9, 1e-14);
}

// The report's copy rows are priced as the simulator prices them (with the node's memory, the bytes
// at its bandwidths), and where rows say their direction it gives the median residual of the packs
// and of the unpacks apart, over the rows the prices were fitted on: here packs measured 1.25 x and
// unpacks 0.8 x what the prices give.
TEST(CalibratedPlatform, ReportsThePacksAndUnpacksMissesApart) {
  LocalWork work = copy_prices();
  work.run_copied = 1e-9;
  work.record_copied = 0;
  work.memory = NodeMemory::from_measurements({{1, 1e3, 1e9}, {1, 1e8, 1e9}, {2, 1e3, 1e9}, {2, 1e8, 1e9}});
  work.ranks = 2;
  for (const double bytes : {1e5, 1e6, 1e7}) {
    const double priced = work.memory->copy_seconds(bytes, 2) + 1e3 * work.run_copied;
    work.copies.push_back({bytes, 1e3, 0, priced / 0.8, CopyLoop::Pack});
    work.copies.push_back({bytes, 1e3, 0, priced / 1.25, CopyLoop::Unpack});
  }
  // Two packs left out of the fit, missed by far: marked, and not in the medians.
  for (int k = 0; k < 2; ++k) work.copies.push_back({1e6, 1e3, 0, 1.0, CopyLoop::Pack, true});
  const std::string report = calibration_report(measured_line(), work, {1e-9, 2e-9, 3e-9, 4e-9, 5e-9}, {}, 4);
  EXPECT_NE(report.find("median residual: packs -20.0%, unpacks +25.0%"), std::string::npos) << report;
  const auto first = report.find("%  (left out)");
  ASSERT_NE(first, std::string::npos) << report;
  EXPECT_NE(report.find("%  (left out)", first + 1), std::string::npos) << report;
  // Rows of no direction: no such line.
  for (CopyMeasurement& c : work.copies) c.loop.reset();
  EXPECT_EQ(calibration_report(measured_line(), work, {1e-9, 2e-9, 3e-9, 4e-9, 5e-9}, {}, 4).find("median residual"),
            std::string::npos);
}

// The levels calibrate measures beyond the cores: 1.5, 2, 3 and 4 ranks per core, each count once.
TEST(CalibratedPlatform, LevelsBeyondTheCoresAreOneAndAHalfToFourRanksPerCore) {
  EXPECT_EQ(oversubscribed_rank_counts(1), (std::vector<Index>{2, 3, 4}));
  EXPECT_EQ(oversubscribed_rank_counts(2), (std::vector<Index>{3, 4, 6, 8}));
  EXPECT_EQ(oversubscribed_rank_counts(16), (std::vector<Index>{24, 32, 48, 64}));
}

// The copy slowdown of each level against taking turns: on 2 cores, 3 ranks take two turns on core 0
// and 5 ranks three; a machine that loses nothing beyond turns gives 1 at every level.
TEST(CalibratedPlatform, CopySlowdownIsTheTimeOverWhatTurnsGive) {
  const PiecewiseCurve lossless = copy_slowdown_curve({{2, 1e6, 1e-3}, {3, 1e6, 2e-3}, {4, 1e6, 2e-3}, {5, 1e6, 3e-3}}, 2);
  EXPECT_EQ(lossless.text(), "0:1;2:1;2.5:1");
  const PiecewiseCurve halved = copy_slowdown_curve({{2, 1e6, 1e-3}, {3, 1e6, 4e-3}, {4, 1e6, 4.4e-3}}, 2);
  EXPECT_EQ(halved.starts(), (std::vector<double>{0, 2}));
  EXPECT_DOUBLE_EQ(halved.values()[0], 2);
  EXPECT_DOUBLE_EQ(halved.values()[1], 2.2);
  EXPECT_TRUE(copy_slowdown_curve({{2, 1e6, 1e-3}}, 2).empty());  // no level beyond the cores
  EXPECT_THROW(copy_slowdown_curve({{3, 1e6, 1e-3}, {4, 1e6, 1e-3}}, 2), std::invalid_argument);  // no reference
}

// A core's switch cost at each level: half the round trip of two ranks sharing it, less the 8-byte
// message's one-way time between ranks on their own cores (2 us + 8 ns on measured_line()); never
// below 0. Written into the platform beside the other curves over ranks per core.
TEST(CalibratedPlatform, SwitchCostIsHalfASharedCoreRoundTripLessTheMessage) {
  NetworkMeasurements network = measured_line();
  const double one_way = network.fit.at(8);
  EXPECT_NEAR(one_way, 2.008e-6, 1e-9);
  network.shared_core = {{6, 2 * (10e-6 + one_way)}, {8, 2 * (25e-6 + one_way)}};
  const PiecewiseCurve switches = switch_cost_curve(network, 4);
  EXPECT_EQ(switches.starts(), (std::vector<double>{0, 2}));
  EXPECT_NEAR(switches.values()[0], 10e-6, 1e-12);
  EXPECT_NEAR(switches.values()[1], 25e-6, 1e-12);
  network.shared_core = {{6, one_way}};  // faster than the message itself: nothing lost
  EXPECT_EQ(switch_cost_curve(network, 4).values(), (std::vector<double>{0}));
  network.shared_core.clear();
  EXPECT_TRUE(switch_cost_curve(network, 4).empty());

  network.shared_core = {{6, 2 * (10e-6 + one_way)}, {8, 2 * (25e-6 + one_way)}};
  const LocalWork work = copy_prices();
  const std::vector<double> prices = {1e-9, 2e-9, 3e-9, 4e-9, 5e-9};
  const std::string report = calibration_report(network, work, prices, {}, 4);
  const PlatformFile platform(calibrated_platform_xml(4, network, work, prices, {}, report));
  EXPECT_NE(platform.text().find("<prop id=\"redist.switch_cost\" value=\"" + switches.text() + "\"/>"), std::string::npos)
      << platform.text();
  EXPECT_NE(report.find("two ranks sharing a core ping-ponging"), std::string::npos) << report;
}

TEST(CalibratedPlatform, ItsMachineModelSitsBesideIt) {
  EXPECT_EQ(machine_model_file("out/machine.xml"), "out/machine.model.json");
  EXPECT_EQ(machine_model_file("machine"), "machine.model.json");
  EXPECT_EQ(machine_model_file("a.b/platform.txt"), "a.b/platform.txt.model.json");
}

}  // namespace
}  // namespace redist::calibration
