#include "redist/sim/node_memory_hosts.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "redist/core/finite_number.hpp"
#include "redist/sim/engine.hpp"

namespace redist::sim {
namespace {

// A memory host's speed: a copy of W bytes asks for W / M(W) seconds of the whole memory, counted in
// nanoseconds so that SimGrid's solver works on amounts far above its precision.
constexpr double kMemorySpeed = 1e9;

std::optional<PiecewiseCurve> read_curve(const simgrid::s4u::Host& host, std::string_view property,
                                         const std::string& platform) {
  return read_curve_property(host.get_property(std::string(property)), "host " + host.get_name(), property, platform);
}

}  // namespace

void CopyResource::copy(double bytes, double slowdown, CopyLoop loop) const {
  if (bytes <= 0) return;
  const double resident = NodeMemory::resident_bytes(bytes, touched);
  const double node = memory->together(resident);
  simgrid::s4u::ExecPtr exec =
      simgrid::s4u::this_actor::exec_init(bytes / node * kMemorySpeed * slowdown * memory->loop_factor(loop));
  exec->set_host(host);
  exec->set_bound(memory->alone(resident) / node * kMemorySpeed);
  exec->start();
  exec->wait();
}

std::optional<NodeMemory> read_node_memory(const simgrid::s4u::Host& host, const std::string& platform) {
  auto copy = read_curve(host, kCopyBandwidthProperty, platform);
  auto node = read_curve(host, kNodeBandwidthProperty, platform);
  if (!copy && !node) return std::nullopt;
  if (!copy || !node) {
    throw std::runtime_error("platform " + platform + ": host " + host.get_name() + " declares " +
                             std::string(copy ? kCopyBandwidthProperty : kNodeBandwidthProperty) + " without " +
                             std::string(copy ? kNodeBandwidthProperty : kCopyBandwidthProperty));
  }
  NodeMemory memory{std::move(*copy), std::move(*node)};
  const auto factor = [&](std::string_view property) -> std::optional<double> {
    const char* text = host.get_property(std::string(property));
    if (text == nullptr) return std::nullopt;
    const auto value = finite_number(text);
    if (!value || *value <= 0) {
      throw std::runtime_error("platform " + platform + ": host " + host.get_name() + " property " +
                               std::string(property) + ": '" + text + "' is not a positive factor");
    }
    return *value;
  };
  memory.pack_factor = factor(kPackFactorProperty).value_or(1);
  memory.unpack_factor = factor(kUnpackFactorProperty).value_or(1);
  memory.sweep_factor = factor(kSweepFactorProperty);
  return memory;
}

std::vector<CopyResource> make_copy_resources(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                              const std::string& platform) {
  std::map<const simgrid::s4u::Host*, std::optional<NodeMemory>> declared;
  for (const simgrid::s4u::Host* host : rank_hosts) {
    if (!declared.contains(host)) declared.emplace(host, read_node_memory(*host, platform));
  }
  std::vector<CopyResource> out(rank_hosts.size());
  simgrid::s4u::NetZone* zone = nullptr;
  std::map<std::string, CopyResource> by_node;  // by memory node
  for (std::size_t rank = 0; rank < rank_hosts.size(); ++rank) {
    const simgrid::s4u::Host* host = rank_hosts[rank];
    const std::optional<NodeMemory>& memory = declared.at(host);
    if (!memory) continue;
    const char* named = host->get_property(std::string(kMemoryNodeProperty));
    const std::string node = named != nullptr ? std::string("memory.node ") + named : "host " + host->get_name();
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
                               std::string(kCopyBandwidthProperty) + " or " + std::string(kNodeBandwidthProperty) +
                               " than the other hosts of its " + node);
    }
    out[rank] = at->second;
  }
  if (zone != nullptr) zone->seal();
  return out;
}

}  // namespace redist::sim
