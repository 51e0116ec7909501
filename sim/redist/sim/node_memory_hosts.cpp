#include "redist/sim/node_memory_hosts.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "redist/core/finite_number.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/host_costs.hpp"

namespace redist::sim {
namespace {

// A memory host's speed: a copy of W bytes asks for W / M(W) seconds of the whole memory, counted in
// nanoseconds so that SimGrid's solver works on amounts far above its precision.
constexpr double kMemorySpeed = 1e9;

std::optional<PiecewiseCurve> read_curve(const simgrid::s4u::Host& host, std::string_view property,
                                         const std::string& platform) {
  return read_curve_property(host.get_property(std::string(property)), "host " + host.get_name(), property, platform);
}

// The largest cache a memory.cache_bytes may declare: far beyond any, and exact in a double.
constexpr double kMostCacheBytes = 9007199254740992.0;  // 2^53

std::optional<Index> read_cache_bytes(const simgrid::s4u::Host& host, const std::string& platform) {
  const char* text = host.get_property(std::string(kCacheBytesProperty));
  if (text == nullptr) return std::nullopt;
  const auto bytes = finite_number(text);
  if (!bytes || *bytes < 1 || *bytes > kMostCacheBytes || std::floor(*bytes) != *bytes) {
    throw std::runtime_error("platform " + platform + ": host " + host.get_name() + " has '" + text +
                             "' (not a whole number of bytes from 1 to 2^53) in property " +
                             std::string(kCacheBytesProperty));
  }
  return static_cast<Index>(*bytes);
}

// "host H declares A without B", the error of a property that needs another.
std::runtime_error declared_without(const simgrid::s4u::Host& host, const std::string& platform, std::string_view has,
                                    std::string_view lacks) {
  return std::runtime_error("platform " + platform + ": host " + host.get_name() + " declares " + std::string(has) +
                            " without " + std::string(lacks));
}

}  // namespace

void CopyResource::copy(double bytes, double slowdown) const {
  if (bytes <= 0) return;
  const double node = memory->node_bandwidth.at(bytes);
  simgrid::s4u::ExecPtr exec = simgrid::s4u::this_actor::exec_init(bytes / node * kMemorySpeed * slowdown);
  exec->set_host(host);
  exec->set_bound(memory->copy_bandwidth.at(bytes) / node * kMemorySpeed);
  exec->start();
  exec->wait();
}

std::optional<NodeMemory> read_node_memory(const simgrid::s4u::Host& host, const std::string& platform) {
  auto copy = read_curve(host, kCopyBandwidthProperty, platform);
  auto node = read_curve(host, kNodeBandwidthProperty, platform);
  auto cached = read_curve(host, kCachedCopyBandwidthProperty, platform);
  const std::optional<Index> cache_bytes = read_cache_bytes(host, platform);
  if (cached.has_value() != cache_bytes.has_value()) {
    throw cached ? declared_without(host, platform, kCachedCopyBandwidthProperty, kCacheBytesProperty)
                 : declared_without(host, platform, kCacheBytesProperty, kCachedCopyBandwidthProperty);
  }
  if (!copy && !node) {
    if (cached) {
      throw declared_without(host, platform, kCachedCopyBandwidthProperty,
                             std::string(kCopyBandwidthProperty) + " and " + std::string(kNodeBandwidthProperty));
    }
    return std::nullopt;
  }
  if (!copy || !node) {
    throw copy ? declared_without(host, platform, kCopyBandwidthProperty, kNodeBandwidthProperty)
               : declared_without(host, platform, kNodeBandwidthProperty, kCopyBandwidthProperty);
  }
  NodeMemory memory{std::move(*copy), std::move(*node)};
  if (cached) memory.cached = CachedCopies{std::move(*cached), *cache_bytes};
  return memory;
}

std::vector<CopyResource> make_copy_resources(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                              const std::string& platform, const std::vector<Index>& working_sets) {
  if (!working_sets.empty() && working_sets.size() != rank_hosts.size()) {
    throw std::invalid_argument("working sets of " + std::to_string(working_sets.size()) + " ranks for " +
                                std::to_string(rank_hosts.size()) + " ranks");
  }
  std::map<const simgrid::s4u::Host*, std::optional<NodeMemory>> declared;
  for (const simgrid::s4u::Host* host : rank_hosts) {
    if (!declared.contains(host)) declared.emplace(host, read_node_memory(*host, platform));
  }
  std::vector<CopyResource> out(rank_hosts.size());
  simgrid::s4u::NetZone* zone = nullptr;
  std::map<std::string, CopyResource> by_node;  // by memory node
  std::map<std::string, Index> node_working_set;  // by memory node: its ranks' working sets summed
  std::vector<std::string> node_of(rank_hosts.size());
  for (std::size_t rank = 0; rank < rank_hosts.size(); ++rank) {
    const simgrid::s4u::Host* host = rank_hosts[rank];
    const std::optional<NodeMemory>& memory = declared.at(host);
    if (!memory) continue;
    const char* named = host->get_property(std::string(kMemoryNodeProperty));
    const std::string node = named != nullptr ? std::string("memory.node ") + named : "host " + host->get_name();
    node_of[rank] = node;
    if (!working_sets.empty()) node_working_set[node] += working_sets[rank];
    auto [at, fresh] = by_node.try_emplace(node);
    if (fresh) {
      if (zone == nullptr) {
        zone = simgrid::s4u::create_full_zone("redist-node-memory");
        zone->set_parent(simgrid::s4u::Engine::get_instance()->get_netzone_root());
      }
      at->second.memory = std::make_shared<const NodeMemory>(*memory);
      at->second.host = zone->create_host("redist-memory-" + std::to_string(by_node.size() - 1), kMemorySpeed);
    } else if (!(*at->second.memory == *memory)) {
      throw std::runtime_error("platform " + platform + ": host " + host->get_name() + " declares other " +
                               std::string(kCopyBandwidthProperty) + ", " + std::string(kNodeBandwidthProperty) + ", " +
                               std::string(kCachedCopyBandwidthProperty) + " or " + std::string(kCacheBytesProperty) +
                               " than the other hosts of its " + node);
    }
    out[rank] = at->second;
  }
  if (zone != nullptr) zone->seal();
  for (std::size_t rank = 0; rank < out.size() && !working_sets.empty(); ++rank) {
    if (out[rank].memory == nullptr) continue;
    const WorkingSet set{working_sets[rank], node_working_set.at(node_of[rank])};
    out[rank].warm_bandwidth = out[rank].memory->warm_bandwidth(set).value_or(0.0);
  }
  return out;
}

}  // namespace redist::sim
