// The platform values `redist fit` moves: found where the platform file writes them, read in SI
// units, and written back scaled by one factor per value, the rest of the file untouched.
#include <gtest/gtest.h>

#include "redist/calibration/platform_values.hpp"

namespace redist::calibration {
namespace {

const std::string kPlatform = R"(<?xml version='1.0'?>
<!-- a <host id="commented-out"> and <link id="fake" bandwidth="1Bps"/> are not elements -->
<platform version="4.1">
  <config><prop id="network/model" value="CM02"/></config>
  <zone id="z" routing="Floyd">
    <host id="a" speed="100Mf">
      <prop id="cost.index_op" value="2e-07"/>
    </host>
    <host id="b" speed="0.1Gf"><prop id="cost.index_op" value="2e-07"/></host>
    <link id="port-up-0" bandwidth="40MBps" latency="0.1us"/>
    <link id="port-up-1" bandwidth="40MBps" latency="100ns"/>
    <link id="trunk-0" bandwidth="160MBps" latency="0.5us"/>
    <link id="loop" bandwidth="1GiBps"/>
  </zone>
</platform>
)";

std::vector<double> values(const PlatformFile& file, const PlatformTarget& target) {
  std::vector<double> out;
  for (const auto& site : file.sites(target)) out.push_back(site.value);
  return out;
}

TEST(PlatformValues, ReadsEverySiteInSiUnitsSkippingComments) {
  const PlatformFile file(kPlatform);
  EXPECT_EQ(values(file, {PlatformTarget::Kind::HostProperty, "cost.index_op"}), (std::vector<double>{2e-7, 2e-7}));
  EXPECT_EQ(values(file, {PlatformTarget::Kind::HostSpeed, ""}), (std::vector<double>{1e8, 1e8}));
  EXPECT_EQ(values(file, {PlatformTarget::Kind::LinkBandwidth, "port-.*|trunk-.*"}), (std::vector<double>{4e7, 4e7, 1.6e8}));
  const auto latency = values(file, {PlatformTarget::Kind::LinkLatency, "port-up-.*"});
  ASSERT_EQ(latency.size(), 2u);
  EXPECT_DOUBLE_EQ(latency[0], 1e-7);
  EXPECT_DOUBLE_EQ(latency[1], 1e-7);
  EXPECT_DOUBLE_EQ(file.value({PlatformTarget::Kind::LinkBandwidth, "loop"}), 1073741824.0);
  // The regex must match the whole id: "port" alone matches nothing.
  EXPECT_THROW(file.sites({PlatformTarget::Kind::LinkBandwidth, "port"}), std::invalid_argument);
  EXPECT_THROW(file.sites({PlatformTarget::Kind::LinkBandwidth, "fake"}), std::invalid_argument);
  EXPECT_THROW(file.sites({PlatformTarget::Kind::HostProperty, "cost.nothing"}), std::invalid_argument);
  EXPECT_THROW(file.sites({PlatformTarget::Kind::HostProperty, "network/model"}), std::invalid_argument);  // not a host's
  EXPECT_THROW(file.sites({PlatformTarget::Kind::LinkLatency, "(("}), std::invalid_argument);
}

TEST(PlatformValues, LinksThatDifferKeepTheirRatios) {
  const PlatformFile file(kPlatform);
  const PlatformTarget links{PlatformTarget::Kind::LinkBandwidth, "port-.*|trunk-.*"};
  // The value is the first matching link's; every matching link is scaled by the same factor.
  const PlatformFile fitted(file.with_values({links}, {5e7}));
  EXPECT_EQ(values(fitted, links), (std::vector<double>{5e7, 5e7, 2e8}));
  EXPECT_DOUBLE_EQ(fitted.value({PlatformTarget::Kind::LinkBandwidth, "loop"}), 1073741824.0);  // untouched
}

TEST(PlatformValues, WritesValuesCommentsAndHeaderAndNothingElse) {
  const PlatformFile file(kPlatform);
  const PlatformTarget index{PlatformTarget::Kind::HostProperty, "cost.index_op"};
  const PlatformTarget speed{PlatformTarget::Kind::HostSpeed, ""};
  const std::string text = file.with_values({index, speed}, {3e-7, 2e8}, {"fitted: index", ""}, "  FITTED here\n");
  const PlatformFile fitted(text);
  EXPECT_EQ(values(fitted, index), (std::vector<double>{3e-7, 3e-7}));
  EXPECT_EQ(values(fitted, speed), (std::vector<double>{2e8, 2e8}));
  EXPECT_NE(text.find("<prop id=\"cost.index_op\" value=\"3e-07\"/> <!-- fitted: index -->"), std::string::npos) << text;
  EXPECT_NE(text.find("<!--\n  FITTED here\n-->\n<platform"), std::string::npos) << text;
  // Setting the derived values back gives the same numbers (units aside).
  const PlatformFile back(fitted.with_values({index, speed}, {2e-7, 1e8}));
  EXPECT_EQ(values(back, index), values(file, index));
  EXPECT_EQ(values(back, speed), values(file, speed));
  EXPECT_EQ(file.with_values({}, {}), kPlatform);
}

TEST(PlatformValues, RefusesUnknownUnitsAndSharedSites) {
  const PlatformFile odd(std::string(kPlatform).replace(kPlatform.find("40MBps"), 6, "40furlongs"));
  EXPECT_THROW(odd.sites({PlatformTarget::Kind::LinkBandwidth, "port-up-0"}), std::invalid_argument);
  const PlatformFile file(kPlatform);
  const PlatformTarget one{PlatformTarget::Kind::LinkBandwidth, "port-up-0"};
  const PlatformTarget all{PlatformTarget::Kind::LinkBandwidth, "port-.*"};
  EXPECT_THROW((void)file.with_values({one, all}, {1e7, 1e7}), std::invalid_argument);
}

}  // namespace
}  // namespace redist::calibration
