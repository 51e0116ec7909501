#include "redist/experiments/platform_search.hpp"

namespace redist {

std::optional<std::filesystem::path> find_platform_file(const std::string& name, const std::filesystem::path& beside,
                                                        const std::filesystem::path& repo_root) {
  namespace fs = std::filesystem;
  for (const fs::path& candidate : {beside / name, repo_root / name, repo_root / "platforms" / name}) {
    // A name the system cannot look up (longer than PATH_MAX, a part longer than NAME_MAX) is not
    // there: the caller's "not found" names the file and its line, the throwing form would not.
    std::error_code unreadable;
    if (fs::is_regular_file(candidate, unreadable)) return candidate;
  }
  return std::nullopt;
}

}  // namespace redist
