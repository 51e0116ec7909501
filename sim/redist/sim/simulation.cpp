#include "redist/sim/simulation.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <stdexcept>

#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "redist/sim/core_sharing_slowdowns.hpp"
#include "redist/sim/host_costs.hpp"
#include "redist/sim/network_factors.hpp"
#include "redist/sim/oversubscribed_bandwidth.hpp"
#include "redist/sim/platform_check.hpp"
#include "redist/sim/ranks_on_host.hpp"
#include "redist/sim/platform_load_error.hpp"
#include "redist/sim/simgrid_setup.hpp"
#include "redist/sim/simgrid_transport.hpp"
#include "redist/sim/world.hpp"

namespace redist::sim {
namespace {

void load_platform(const simgrid::s4u::Engine& engine, const std::string& file) {
  check_platform_text(file);
  try {
    engine.load_platform(file);
  } catch (const std::exception& e) {
    throw std::runtime_error(platform_load_error(file, e.what()));
  }
}

std::string host_name(const SimulationOptions& options, Rank rank) {
  return options.rank_hosts.empty() ? "node-" + std::to_string(rank)
                                    : options.rank_hosts[static_cast<std::size_t>(rank)];
}

std::vector<RankPlacement> place_ranks(const simgrid::s4u::Engine& engine, const SimulationOptions& options) {
  const std::string& platform = options.platform_file;
  if (options.rank_hosts.empty() && static_cast<std::size_t>(options.ranks) > engine.get_host_count()) {
    throw std::runtime_error("platform " + platform + " has " + std::to_string(engine.get_host_count()) +
                             " hosts, too few for " + std::to_string(options.ranks) + " ranks");
  }
  std::map<const simgrid::s4u::Host*, WorkPrices> prices;  // read once per host
  std::vector<RankPlacement> placement;
  for (Rank rank = 0; rank < options.ranks; ++rank) {
    const std::string name = host_name(options, rank);
    simgrid::s4u::Host* host = engine.host_by_name_or_null(name);
    if (host == nullptr) {
      throw std::runtime_error("platform " + platform + " has no host " + name + " (for rank " +
                               std::to_string(rank) + ")");
    }
    auto it = prices.find(host);
    if (it == prices.end()) it = prices.emplace(host, read_prices(*host, platform)).first;
    placement.push_back({host, it->second, {}, nullptr});
  }
  return placement;
}

// A control network is a property of the machine: every rank's host declares it, or none does.
std::optional<double> barrier_latency(const std::vector<RankPlacement>& placement, const std::string& platform) {
  std::optional<double> latency;
  const simgrid::s4u::Host* without = nullptr;
  for (const RankPlacement& p : placement) {
    if (const auto seconds = read_seconds(*p.host, kBarrierLatencyProperty, platform)) {
      latency = std::max(latency.value_or(0.0), *seconds);
    } else if (without == nullptr) {
      without = p.host;
    }
  }
  if (latency && without != nullptr) {
    throw std::runtime_error("platform " + platform + ": host " + without->get_name() + " lacks property " +
                             std::string(kBarrierLatencyProperty) + " that other ranks' hosts declare");
  }
  return latency;
}

// One memory for all ranks: every rank's host names the same memory node (none: distributed memory).
bool shared_memory(const std::vector<RankPlacement>& placement) {
  std::vector<const simgrid::s4u::Host*> hosts;
  for (const RankPlacement& p : placement) hosts.push_back(p.host);
  return share_one_memory(hosts);
}

// The scan hardware: declared by every rank's host (with its three prices) or by none.
std::optional<ControlScanCosts> control_scan(const std::vector<RankPlacement>& placement, const std::string& platform) {
  std::optional<ControlScanCosts> costs;
  const simgrid::s4u::Host* without = nullptr;
  for (const RankPlacement& p : placement) {
    const auto scan = read_seconds(*p.host, kScanLatencyProperty, platform);
    if (!scan) {
      if (without == nullptr) without = p.host;
      continue;
    }
    const auto reduce = read_seconds(*p.host, kReduceLatencyProperty, platform);
    const auto per_word = read_seconds(*p.host, kScanPerWordProperty, platform);
    if (!reduce || !per_word) {
      throw std::runtime_error("platform " + platform + ": host " + p.host->get_name() + " has " +
                               std::string(kScanLatencyProperty) + " without " + std::string(kReduceLatencyProperty) +
                               " and " + std::string(kScanPerWordProperty));
    }
    const ControlScanCosts mine{*scan, *reduce, *per_word};
    costs = costs ? ControlScanCosts{std::max(costs->scan_latency, mine.scan_latency),
                                     std::max(costs->reduce_latency, mine.reduce_latency),
                                     std::max(costs->per_word, mine.per_word)}
                  : mine;
  }
  if (costs && without != nullptr) {
    throw std::runtime_error("platform " + platform + ": host " + without->get_name() + " lacks property " +
                             std::string(kScanLatencyProperty) + " that other ranks' hosts declare");
  }
  return costs;
}

// One rank: its transport lives as long as its actor. A failing rank ends the whole simulation: the
// others could only block on it or compute results nobody will read.
void rank_actor(World& world, Rank rank, const RankBody& body, std::string& result) {
  SimGridTransport transport(world, rank);
  try {
    result = body(transport);
    transport.finish();
    if (transport.pending() > 0) {
      throw std::runtime_error("returned with " + std::to_string(transport.pending()) +
                               " requests not completed by wait_any/wait_all");
    }
  } catch (const simgrid::ForcefulKillException&) {
    throw;  // SimGrid unwinding a killed actor: never swallow
  } catch (const std::exception& e) {
    world.fail("rank " + std::to_string(rank) + ": " + e.what());
    simgrid::s4u::Actor::kill_all();
  } catch (...) {
    world.fail("rank " + std::to_string(rank) + ": unknown exception");
    simgrid::s4u::Actor::kill_all();
  }
}

}  // namespace

std::vector<std::string> run_simulation(const SimulationOptions& options, const RankBody& body) {
  const auto engine = create_engine(options.trace_file);
  load_platform(*engine, options.platform_file);
  apply_network_factors(*engine, options.platform_file);
  auto placement = place_ranks(*engine, options);
  std::vector<simgrid::s4u::Host*> used;
  for (const RankPlacement& p : placement) used.push_back(p.host);
  check_platform(*engine, options.platform_file, used);
  // The node memories' hosts join the platform (a zone of their own under the root) before it is
  // sealed: a sealed zone takes no new child.
  const std::vector<CopyResource> copies = make_copy_resources(used, options.platform_file);
  // Routes are read below (a shared host's route to itself): only a sealed platform has them all.
  // Unsealed, SimGrid 3.32 has no loopback yet: a Full zone crashes (signal 11) on a host's route
  // to itself, a Floyd zone says "No route" (alpha3000.xml, modern-100g.xml under --hosts 1).
  engine->seal_platform();
  const std::vector<double> message_copies = message_copy_rates(used, options.platform_file);
  const auto cores = assign_cores(used, options.platform_file);
  const std::vector<double> copy_slowdowns = slowdowns(used, kCopySlowdownProperty, options.platform_file);
  const std::vector<double> work_slowdowns = slowdowns(used, kWorkSlowdownProperty, options.platform_file);
  const std::vector<int> ranks_on = ranks_on_host(used);
  for (std::size_t rank = 0; rank < placement.size(); ++rank) {
    placement[rank].copies = copies[rank];
    placement[rank].core = cores[rank];
    placement[rank].ranks_on_host = ranks_on[rank];
    placement[rank].cores = used[rank]->get_core_count();
    placement[rank].message_copy_rate = message_copies[rank];
    placement[rank].copy_slowdown = copy_slowdowns[rank];
    placement[rank].work_slowdown = work_slowdowns[rank];
  }
  // A node's caches hold what all its ranks' calls touch: each rank's copies are priced by its node's sum.
  std::map<const simgrid::s4u::Host*, double> touched_on_node;  // by memory host
  for (std::size_t rank = 0; rank < placement.size() && rank < options.touched_bytes.size(); ++rank) {
    touched_on_node[placement[rank].copies.host] += options.touched_bytes[rank];
  }
  for (RankPlacement& p : placement) {
    p.copies.touched = options.touched_bytes.empty() ? 0.0 : touched_on_node[p.copies.host];
  }
  const auto latency = barrier_latency(placement, options.platform_file);
  auto scan = control_scan(placement, options.platform_file);
  const bool one_memory = shared_memory(placement);
  World world(options.platform_file, std::move(placement), options.phantom, latency);
  world.set_control_scan(scan);
  world.set_shared_memory(one_memory);
  world.set_sources_shared(one_memory && options.sources_shared);

  std::vector<std::string> results(static_cast<std::size_t>(options.ranks));
  for (Rank rank = 0; rank < options.ranks; ++rank) {
    simgrid::s4u::Actor::create("rank-" + std::to_string(rank), world.placement(rank).host,
                                [&world, &body, &results, rank] {
                                  rank_actor(world, rank, body, results[static_cast<std::size_t>(rank)]);
                                });
  }
  // SimGrid calls this when every remaining actor is blocked, then kills them all.
  simgrid::s4u::Engine::on_deadlock_cb([&world] { world.fail(world.deadlock_report()); });
  engine->run();
  if (world.failed()) throw std::runtime_error(world.error());
  return results;
}

}  // namespace redist::sim
