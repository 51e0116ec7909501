// One table of platform properties (redist/transport/platform_properties.hpp) names what the readers
// read, what the platform check accepts and what platforms/README.md lists.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "redist/transport/platform_properties.hpp"
#include "redist/transport/work.hpp"
#include "run_command.hpp"

namespace redist::test {
namespace {

namespace fs = std::filesystem;

TEST(PlatformProperties, ReadmeListIsWhatTheTablePrints) {
  const std::string readme = slurp(fs::path(REDIST_SOURCE_DIR) / "platforms/README.md");
  const std::string begin = "<!-- begin: printed by `redist platform-properties` -->\n",
                    end = "<!-- end: printed by `redist platform-properties` -->";
  const auto from = readme.find(begin), to = readme.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const auto printed = run_command(std::string(REDIST_BIN) + " platform-properties");
  ASSERT_EQ(printed.status, 0) << printed.err;
  EXPECT_EQ(printed.out, platform_properties_markdown());
  EXPECT_EQ(readme.substr(from + begin.size(), to - from - begin.size()), printed.out)
      << "platforms/README.md's property list is stale: paste the output of `redist platform-properties` between its markers";
}

TEST(PlatformProperties, EachNameOnceAndEachReaderASourceThatUsesTheTable) {
  std::set<std::string_view> names;
  for (const auto& p : kPlatformProperties) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name << " twice";
    EXPECT_TRUE(in_property_namespace(p.name)) << p.name;
    EXPECT_FALSE(p.unit.empty() || p.meaning.empty()) << p.name;
    if (p.reader.empty()) continue;
    const fs::path reader = fs::path(REDIST_SOURCE_DIR) / p.reader;
    ASSERT_TRUE(fs::is_regular_file(reader)) << p.name << ": " << p.reader;
    // The reader takes the name from the table, never from a literal of its own.
    EXPECT_EQ(slurp(reader).find("\"" + std::string(p.name) + "\""), std::string::npos)
        << p.reader << " spells " << p.name << " itself";
  }
}

TEST(PlatformProperties, WorkKindPricesAreTheTablesCostRows) {
  for (std::size_t k = 0; k < kWorkKinds; ++k) {
    const auto name = price_property(static_cast<WorkKind>(k));
    ASSERT_NE(find_platform_property(name), nullptr) << name;
    EXPECT_EQ(name.substr(0, 5), "cost.");
  }
  EXPECT_EQ(find_platform_property("cost.index_ops"), nullptr);
  EXPECT_TRUE(in_property_namespace("cost.index_ops"));
  EXPECT_FALSE(in_property_namespace("network/model"));
  EXPECT_FALSE(in_property_namespace("other.tool_setting"));
}

}  // namespace
}  // namespace redist::test
