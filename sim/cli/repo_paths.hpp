// Where the repository's data folders (scenarios/, platforms/, analysis/) are: the current
// directory when it is a checkout, otherwise the source tree the binary was built from.
#pragma once

#include <filesystem>

namespace redist::cli {

inline std::filesystem::path repo_root() {
  namespace fs = std::filesystem;
  if (fs::is_directory("scenarios") && fs::is_directory("platforms")) return fs::current_path();
  return fs::path(REDIST_SOURCE_DIR);
}

}  // namespace redist::cli
