// The one platform search order of scenarios, fit specifications and `redist replay --platform`:
// beside the naming file, then the repository, then its platforms/.
#include <gtest/gtest.h>

#include <fstream>

#include "redist/experiments/platform_search.hpp"
#include "temp_dir.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;

void touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "<platform/>\n";
}

TEST(PlatformSearch, BesideTheNamingFileComesFirst) {
  const test::TempDir dir("redist-platform-search");
  const fs::path repo = dir / "repo", beside = dir / "specs";
  touch(beside / "m.xml");
  touch(repo / "m.xml");
  touch(repo / "platforms" / "m.xml");
  EXPECT_EQ(find_platform_file("m.xml", beside, repo), beside / "m.xml");
  fs::remove(beside / "m.xml");
  EXPECT_EQ(find_platform_file("m.xml", beside, repo), repo / "m.xml");
  fs::remove(repo / "m.xml");
  EXPECT_EQ(find_platform_file("m.xml", beside, repo), repo / "platforms" / "m.xml");
  fs::remove(repo / "platforms" / "m.xml");
  EXPECT_EQ(find_platform_file("m.xml", beside, repo), std::nullopt);
}

TEST(PlatformSearch, AFolderIsNoPlatform) {
  const test::TempDir dir("redist-platform-search");
  fs::create_directories(dir / "platforms" / "m.xml");
  EXPECT_EQ(find_platform_file("m.xml", dir.path(), dir.path()), std::nullopt);
}

TEST(PlatformSearch, AnEmptyFolderMeansTheNameAsGiven) {
  const test::TempDir dir("redist-platform-search");
  touch(dir / "m.xml");
  const fs::path absolute = dir / "m.xml";
  EXPECT_EQ(find_platform_file(absolute.string(), "", "/nonexistent"), absolute);
  touch(dir / "platforms" / "n.xml");
  EXPECT_EQ(find_platform_file("n.xml", "", dir.path()), dir / "platforms" / "n.xml");
}

}  // namespace
}  // namespace redist
