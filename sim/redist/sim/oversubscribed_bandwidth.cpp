#include "redist/sim/oversubscribed_bandwidth.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <simgrid/s4u/Engine.hpp>

#include "redist/sim/host_costs.hpp"
#include "redist/transport/machine_model.hpp"

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

std::vector<double> message_copy_rates(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                       const std::string& platform) {
  for (const simgrid::s4u::Link* link : simgrid::s4u::Engine::get_instance()->get_all_links()) {
    oversubscribed_bandwidth(*link, platform);  // checked whether used or not
  }
  std::map<simgrid::s4u::Host*, int> ranks_on;
  for (simgrid::s4u::Host* host : rank_hosts) ++ranks_on[host];
  std::map<simgrid::s4u::Host*, double> rate_of;
  for (const auto& [host, ranks] : ranks_on) {
    double rate = 0;
    if (ranks > host->get_core_count()) {
      std::vector<simgrid::s4u::Link*> route;
      double latency = 0;
      host->route_to(host, route, &latency);
      double smallest = 0;
      for (const simgrid::s4u::Link* link : route) {
        const double bandwidth = oversubscribed_bandwidth(*link, platform);
        if (bandwidth > 0) smallest = smallest > 0 ? std::min(smallest, bandwidth) : bandwidth;
      }
      rate = message_copy_rate(smallest, host->get_core_count());
    }
    rate_of[host] = rate;
  }
  std::vector<double> rates;
  for (simgrid::s4u::Host* host : rank_hosts) rates.push_back(rate_of[host]);
  return rates;
}

}  // namespace redist::sim
