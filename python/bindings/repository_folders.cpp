#include "repository_folders.hpp"

#include <stdexcept>

#include "redist/experiments/platform_search.hpp"

namespace redist::python {

std::filesystem::path repository_root() {
  namespace fs = std::filesystem;
  if (fs::is_directory("scenarios") && fs::is_directory("platforms")) return fs::current_path();
  return fs::path(REDIST_SOURCE_DIR);
}

std::string platform_file(const std::string& name) {
  const auto root = repository_root();
  for (const std::string& candidate : {name, name + ".xml"}) {
    if (const auto found = find_platform_file(candidate, "", root)) return std::filesystem::absolute(*found).string();
  }
  throw std::invalid_argument("platform file '" + name + "' not found (looked in the current folder, in " +
                              root.string() + " and in " + (root / "platforms").string() + ")");
}

}  // namespace redist::python
