// The platform `redist calibrate` writes, read back by the reader `redist fit` edits platforms with:
// the fitted latency and the all-to-all's bandwidth on the shared link, the host's cores, and the
// fitted prices of local work on it; the machine model's file beside the platform.
#include <gtest/gtest.h>

#include "redist/calibration/calibrated_platform.hpp"
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
  n.oversubscribed = {8, Index{1} << 19, 1.5e9};
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
  const std::string report = calibration_report(network, work, prices);
  const PlatformFile platform(calibrated_platform_xml(4, network, work, prices, report));
  EXPECT_NE(platform.text().find(report), std::string::npos);
  EXPECT_NE(platform.text().find("core=\"4\""), std::string::npos);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::LinkBandwidth, "memory"}), 3e9, 3e9 * 1e-5);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::LinkLatency, "memory"}), 2e-6, 2e-6 * 1e-3);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.byte_copied"}), 2.5e-10, 1e-15);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.record_copied"}), 1e-8, 1e-13);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.index_op"}), 1e-9, 1e-14);
  EXPECT_NEAR(platform.value({PlatformTarget::Kind::HostProperty, "cost.run_listed"}), 5e-9, 1e-14);
}

TEST(CalibratedPlatform, ItsMachineModelSitsBesideIt) {
  EXPECT_EQ(machine_model_file("out/machine.xml"), "out/machine.model.json");
  EXPECT_EQ(machine_model_file("machine"), "machine.model.json");
  EXPECT_EQ(machine_model_file("a.b/platform.txt"), "a.b/platform.txt.model.json");
}

}  // namespace
}  // namespace redist::calibration
