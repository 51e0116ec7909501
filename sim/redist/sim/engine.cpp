#include "redist/sim/engine.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "redist/sim/isolated_run.hpp"
#include "redist/sim/simulation.hpp"

namespace redist::sim {
namespace {

// SimGrid opens the trace file only once the simulation runs, and crashes (signal 11) when it
// cannot: a path it cannot write is named here, before anything runs, and nothing is created.
void check_trace_file(const std::string& trace_file) {
  if (trace_file.empty()) return;
  namespace fs = std::filesystem;
  std::error_code ignored;
  const fs::path path(trace_file);
  if (fs::is_directory(path, ignored)) throw std::runtime_error("trace file " + trace_file + " is a directory");
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(directory, ignored)) {
    throw std::runtime_error("trace file " + trace_file + ": no such directory " + directory.string());
  }
  if (::access(directory.c_str(), W_OK) != 0 || (fs::exists(path, ignored) && ::access(path.c_str(), W_OK) != 0)) {
    throw std::runtime_error("trace file " + trace_file + " cannot be written");
  }
}

// Mistakes we can name before forking, in the caller's words.
void check_options(const SimulationOptions& options) {
  if (options.ranks <= 0) {
    throw std::runtime_error("simulation needs at least one rank, got " + std::to_string(options.ranks));
  }
  if (!options.rank_hosts.empty() && options.rank_hosts.size() != static_cast<std::size_t>(options.ranks)) {
    throw std::runtime_error(std::to_string(options.rank_hosts.size()) + " rank hosts given for " +
                             std::to_string(options.ranks) + " ranks");
  }
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(options.platform_file, ignored) || !std::ifstream(options.platform_file)) {
    throw std::runtime_error("platform " + options.platform_file + ": no such readable file");
  }
  check_trace_file(options.trace_file);
}

}  // namespace

std::vector<std::string> simulate(const SimulationOptions& options, const RankBody& body) {
  check_options(options);
  return run_isolated([&] { return run_simulation(options, body); },
                      "simulation on platform " + options.platform_file);
}

}  // namespace redist::sim
