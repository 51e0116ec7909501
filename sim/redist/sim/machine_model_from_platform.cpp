#include "redist/sim/machine_model_from_platform.hpp"

#include <map>
#include <stdexcept>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "redist/predict/machine_model_json.hpp"
#include "redist/sim/core_sharing_slowdowns.hpp"
#include "redist/sim/core_turns.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/host_costs.hpp"
#include "redist/sim/isolated_run.hpp"
#include "redist/sim/network_factors.hpp"
#include "redist/sim/node_memory_hosts.hpp"
#include "redist/sim/oversubscribed_bandwidth.hpp"
#include "redist/sim/platform_check.hpp"
#include "redist/sim/platform_load_error.hpp"
#include "redist/sim/simgrid_setup.hpp"

namespace redist::sim {
namespace {

simgrid::s4u::Host& host_named(const simgrid::s4u::Engine& engine, const std::string& name, const std::string& platform) {
  simgrid::s4u::Host* host = engine.host_by_name_or_null(name);
  if (host == nullptr) {
    throw std::runtime_error("platform " + platform + " has no host " + name +
                             " (--hosts H places rank i on node-(i mod H))");
  }
  return *host;
}

MachineModel read_model(const std::string& platform, Index used_hosts, Index hosts) {
  check_platform_text(platform);
  const auto engine = create_engine("");
  try {
    engine->load_platform(platform);
    engine->seal_platform();  // routing tables (Floyd, Dijkstra) are computed when the platform is sealed
  } catch (const std::exception& e) {
    throw std::runtime_error(platform_load_error(platform, e.what()));
  }
  apply_network_factors(*engine, platform);  // the prediction does not use them, but a malformed one is refused
  std::vector<simgrid::s4u::Host*> nodes;
  for (Index h = 0; h < used_hosts; ++h) nodes.push_back(&host_named(*engine, "node-" + std::to_string(h), platform));
  MachineModel model;
  model.prices = read_prices(*nodes.front(), platform);
  model.hosts = hosts;
  model.cores = nodes.front()->get_core_count();
  if (const auto latency = read_seconds(*nodes.front(), kBarrierLatencyProperty, platform)) model.barrier_latency = *latency;
  model.shared_memory = share_one_memory({nodes.begin(), nodes.end()});
  model.memory = read_node_memory(*nodes.front(), platform);
  if (const auto slice = read_time_slice(*nodes.front(), platform)) model.time_slice = *slice;
  model.copy_slowdowns = read_slowdowns(*nodes.front(), kCopySlowdownProperty, platform);
  model.work_slowdowns = read_slowdowns(*nodes.front(), kWorkSlowdownProperty, platform);
  model.switch_costs = read_switch_costs(*nodes.front(), platform);
  std::map<std::string, std::size_t> link_index;
  for (simgrid::s4u::Host* from : nodes) {
    for (simgrid::s4u::Host* to : nodes) {
      std::vector<simgrid::s4u::Link*> links;
      double latency = 0;
      from->route_to(to, links, &latency);
      ModelRoute route{{}, latency};
      for (simgrid::s4u::Link* link : links) {
        auto [at, fresh] = link_index.try_emplace(link->get_name(), model.links.size());
        if (fresh) {
          model.links.push_back({link->get_bandwidth(),
                                 link->get_sharing_policy() != simgrid::s4u::Link::SharingPolicy::FATPIPE,
                                 oversubscribed_bandwidth(*link, platform), oversubscribed_bandwidths(*link, platform)});
        }
        route.links.push_back(at->second);
      }
      model.routes.push_back(std::move(route));
    }
  }
  return model;
}

}  // namespace

MachineModel machine_model_from_platform(const std::string& platform, Index ranks, Index hosts) {
  if (ranks < 1) throw std::invalid_argument("a machine model needs at least one rank");
  const Index placed_on = hosts > 0 ? std::min(hosts, ranks) : ranks;
  const auto out = run_isolated([&] { return std::vector<std::string>{machine_model_to_json(read_model(platform, placed_on, placed_on))}; },
                                "reading platform " + platform);
  return machine_model_from_json(out.at(0), platform);
}

}  // namespace redist::sim
