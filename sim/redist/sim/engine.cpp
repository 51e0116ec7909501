#include "redist/sim/engine.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "redist/sim/isolated_run.hpp"
#include "redist/sim/simulation.hpp"

namespace redist::sim {
namespace {

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
  const auto status = std::filesystem::status(options.platform_file, ignored);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {  // never opened: a FIFO would block
    throw std::runtime_error("platform " + options.platform_file + ": not a regular file (a device, FIFO or socket is not read)");
  }
  if (!std::filesystem::is_regular_file(status) || !std::ifstream(options.platform_file)) {
    throw std::runtime_error("platform " + options.platform_file + ": no such readable file");
  }
}

}  // namespace

std::vector<std::string> simulate(const SimulationOptions& options, const RankBody& body) {
  check_options(options);
  return run_isolated([&] { return run_simulation(options, body); },
                      "simulation on platform " + options.platform_file);
}

}  // namespace redist::sim
