#include "redist/sim/copy_slowdown.hpp"

#include <stdexcept>

#include "redist/sim/ranks_on_host.hpp"
#include "redist/transport/ranks_per_core.hpp"

namespace redist::sim {

PiecewiseCurve read_copy_slowdowns(const simgrid::s4u::Host& host, const std::string& platform) {
  const char* text = host.get_property(std::string(kCopySlowdownProperty));
  if (text == nullptr) return {};
  try {
    return PiecewiseCurve::parse(text, false);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("platform " + platform + ": host " + host.get_name() + " property " +
                             std::string(kCopySlowdownProperty) + ": " + e.what());
  }
}

std::vector<double> copy_slowdowns(const std::vector<simgrid::s4u::Host*>& rank_hosts, const std::string& platform) {
  const std::vector<int> ranks_on = ranks_on_host(rank_hosts);
  std::vector<double> out;
  out.reserve(rank_hosts.size());
  for (std::size_t rank = 0; rank < rank_hosts.size(); ++rank) {
    const simgrid::s4u::Host& host = *rank_hosts[rank];
    out.push_back(copy_slowdown_at(read_copy_slowdowns(host, platform), ranks_per_core(ranks_on[rank], host.get_core_count())));
  }
  return out;
}

}  // namespace redist::sim
