#include "redist/sim/platform_check.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <simgrid/s4u/Link.hpp>

namespace redist::sim {
namespace {

[[noreturn]] void refuse(const std::string& file, const std::string& what) {
  throw std::runtime_error("platform " + file + ": " + what);
}

void check_link(const simgrid::s4u::Link& link, const std::string& file) {
  const double bandwidth = link.get_bandwidth(), latency = link.get_latency();
  if (!std::isfinite(bandwidth) || bandwidth <= 0) {
    refuse(file, fmt::format("link '{}' has bandwidth {:g} B/s (it must be finite and > 0)", link.get_name(), bandwidth));
  }
  if (!std::isfinite(latency) || latency < 0) {
    refuse(file, fmt::format("link '{}' has latency {:g} s (it must be finite and >= 0)", link.get_name(), latency));
  }
}

void check_host(const simgrid::s4u::Host& host, const std::string& file) {
  const double speed = host.get_speed();
  if (!std::isfinite(speed) || speed <= 0) {
    refuse(file, fmt::format("host '{}' has speed {:g} flop/s (it must be finite and > 0)", host.get_name(), speed));
  }
}

void check_route(const simgrid::s4u::Host& from, const simgrid::s4u::Host& to, const std::string& file) {
  std::vector<simgrid::s4u::Link*> links;
  double latency = 0;
  try {
    from.route_to(&to, links, &latency);
  } catch (const std::exception& e) {
    refuse(file, fmt::format("no route from host '{}' to host '{}' ({})", from.get_name(), to.get_name(), e.what()));
  }
  if (links.empty()) refuse(file, fmt::format("no route from host '{}' to host '{}'", from.get_name(), to.get_name()));
}

}  // namespace

void check_platform(const simgrid::s4u::Engine& engine, const std::string& file,
                    const std::vector<simgrid::s4u::Host*>& used) {
  for (const auto* link : engine.get_all_links()) check_link(*link, file);
  for (const auto* host : engine.get_all_hosts()) check_host(*host, file);
  std::vector<simgrid::s4u::Host*> hosts = used;
  std::sort(hosts.begin(), hosts.end(), [](const auto* a, const auto* b) { return a->get_name() < b->get_name(); });
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  for (const auto* from : hosts) {
    for (const auto* to : hosts) {
      if (from != to) check_route(*from, *to, file);
    }
  }
}

}  // namespace redist::sim
