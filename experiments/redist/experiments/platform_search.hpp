// Where a platform file named by a scenario, a fit specification or the command line is found: the
// one search order every command uses.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace redist {

/// The first regular file of: `beside` / name (the folder of the file naming it; an empty `beside`,
/// the current folder, for a name typed on the command line), `repo_root` / name, and
/// `repo_root` / platforms / name. The path is returned as put together from those parts (callers
/// normalise it or make it absolute); nullopt when none is a file.
std::optional<std::filesystem::path> find_platform_file(const std::string& name, const std::filesystem::path& beside,
                                                        const std::filesystem::path& repo_root);

}  // namespace redist
