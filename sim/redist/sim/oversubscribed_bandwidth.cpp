#include "redist/sim/oversubscribed_bandwidth.hpp"

#include <map>
#include <stdexcept>

#include <simgrid/s4u/Engine.hpp>

#include "redist/sim/host_costs.hpp"
#include "redist/sim/ranks_on_host.hpp"
#include "redist/transport/machine_model.hpp"
#include "redist/transport/ranks_per_core.hpp"
#include "redist/transport/message_regime.hpp"

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

PiecewiseCurve oversubscribed_bandwidths(const simgrid::s4u::Link& link, const std::string& platform) {
  return read_curve_property(link.get_property(std::string(kOversubscribedBandwidthsProperty)), "link " + link.get_name(),
                             kOversubscribedBandwidthsProperty, platform)
      .value_or(PiecewiseCurve());
}

std::vector<double> message_copy_rates(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                       const std::string& platform) {
  for (const simgrid::s4u::Link* link : simgrid::s4u::Engine::get_instance()->get_all_links()) {
    oversubscribed_bandwidth(*link, platform);  // checked whether used or not
    oversubscribed_bandwidths(*link, platform);
  }
  const std::vector<int> ranks_on = ranks_on_host(rank_hosts);
  std::map<const simgrid::s4u::Host*, double> rate_of;  // the route looked up once a host (its ranks all at one level)
  std::vector<double> rates;
  for (std::size_t rank = 0; rank < rank_hosts.size(); ++rank) {
    simgrid::s4u::Host* host = rank_hosts[rank];
    if (!ranks_outnumber_cores(ranks_on[rank], host->get_core_count())) {  // its route cannot matter
      rates.push_back(0);
      continue;
    }
    if (!rate_of.contains(host)) {
      std::vector<simgrid::s4u::Link*> route;
      double latency = 0;
      host->route_to(host, route, &latency);
      std::vector<double> declared;
      const double level = ranks_per_core(ranks_on[rank], host->get_core_count());
      for (const simgrid::s4u::Link* link : route) {
        declared.push_back(oversubscribed_bandwidth_at(oversubscribed_bandwidth(*link, platform),
                                                       oversubscribed_bandwidths(*link, platform), level));
      }
      rate_of[host] = message_copy_rate(declared, host->get_core_count());
    }
    rates.push_back(rate_of[host]);
  }
  return rates;
}

}  // namespace redist::sim
