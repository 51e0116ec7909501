#include "redist/sim/oversubscribed_bandwidth.hpp"

#include <map>
#include <stdexcept>

#include "redist/sim/host_costs.hpp"

namespace redist::sim {

double oversubscribed_bandwidth(const simgrid::s4u::Link& link, const std::string& platform) {
  const char* text = link.get_property(std::string(kOversubscribedBandwidthProperty));
  if (text == nullptr) return 0;
  const auto value = finite_number(text);
  if (!value || *value <= 0) {
    throw std::runtime_error("platform " + platform + ": link " + link.get_name() + " has '" + text +
                             "' (not a positive number of bytes per second) in property " +
                             std::string(kOversubscribedBandwidthProperty));
  }
  return *value;
}

void apply_oversubscribed_bandwidth(const simgrid::s4u::Engine& engine,
                                    const std::vector<simgrid::s4u::Host*>& rank_hosts, const std::string& platform) {
  std::map<const simgrid::s4u::Host*, int> ranks_on;
  bool oversubscribed = false;
  for (const simgrid::s4u::Host* host : rank_hosts) oversubscribed |= ++ranks_on[host] > host->get_core_count();
  for (simgrid::s4u::Link* link : engine.get_all_links()) {
    const double bandwidth = oversubscribed_bandwidth(*link, platform);  // checked whether used or not
    if (oversubscribed && bandwidth > 0) link->set_bandwidth(bandwidth);
  }
}

}  // namespace redist::sim
