// Runs one of the Python plotting scripts of reports/ (python3 + matplotlib), without a shell.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace redist {

/// Runs `python3 script args...` ($REDIST_PYTHON, else /usr/bin/python3, else python3 on PATH),
/// which must write `output` (not empty). The interpreter dies with us (os::fork_child). Throws std::runtime_error with one
/// line naming the problem (no python3, no matplotlib, or the script's last error line) and
/// removes a partial `output` when the script fails.
void run_plot_script(const std::filesystem::path& script, const std::vector<std::string>& args,
                     const std::filesystem::path& output);

}  // namespace redist
