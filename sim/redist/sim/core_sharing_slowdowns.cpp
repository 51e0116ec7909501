#include "redist/sim/core_sharing_slowdowns.hpp"

#include <stdexcept>

#include "redist/sim/host_costs.hpp"
#include "redist/sim/ranks_on_host.hpp"
#include "redist/transport/ranks_per_core.hpp"

namespace redist::sim {

PiecewiseCurve read_slowdowns(const simgrid::s4u::Host& host, std::string_view property, const std::string& platform) {
  return read_curve_property(host.get_property(std::string(property)), "host " + host.get_name(), property, platform)
      .value_or(PiecewiseCurve());
}

std::vector<double> slowdowns(const std::vector<simgrid::s4u::Host*>& rank_hosts, std::string_view property,
                              const std::string& platform) {
  const std::vector<int> ranks_on = ranks_on_host(rank_hosts);
  std::vector<double> out;
  out.reserve(rank_hosts.size());
  for (std::size_t rank = 0; rank < rank_hosts.size(); ++rank) {
    const simgrid::s4u::Host& host = *rank_hosts[rank];
    out.push_back(slowdown_at(read_slowdowns(host, property, platform), ranks_per_core(ranks_on[rank], host.get_core_count())));
  }
  return out;
}

}  // namespace redist::sim
