// One writer per output folder: a second lock on a held folder is refused naming the holder, and a
// lock let go normally leaves no file behind, so that the next run takes the folder afresh.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "redist/os/folder_lock.hpp"
#include "../temp_dir.hpp"

namespace redist::os {
namespace {

TEST(FolderLock, OneHolderAtATimeAndNoFileLeftWhenLetGo) {
  const redist::test::TempDir dir("redist-folder-lock");
  const auto file = dir.path() / ".redist.lock";
  std::optional<FolderLock> first(std::in_place, dir.path());
  ASSERT_TRUE(std::filesystem::exists(file));
  try {
    FolderLock second(dir.path());
    ADD_FAILURE() << "a second lock on a held folder was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("pid " + std::to_string(::getpid())), std::string::npos) << e.what();
  }
  first.reset();
  EXPECT_FALSE(std::filesystem::exists(file));
  {
    const FolderLock again(dir.path());  // taken afresh
    EXPECT_TRUE(std::filesystem::exists(file));
  }
  EXPECT_FALSE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace redist::os
