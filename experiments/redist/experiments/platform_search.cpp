#include "redist/experiments/platform_search.hpp"

namespace redist {

std::optional<std::filesystem::path> find_platform_file(const std::string& name, const std::filesystem::path& beside,
                                                        const std::filesystem::path& repo_root) {
  namespace fs = std::filesystem;
  for (const fs::path& candidate : {beside / name, repo_root / name, repo_root / "platforms" / name}) {
    if (fs::is_regular_file(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace redist
