// The memory of each node as a SimGrid resource (redist/transport/node_memory.hpp): a host of its
// own per memory node, created beside the platform, on which the node's ranks run their copies as
// executions. SimGrid shares its speed among the copies that overlap (max-min fairness), each copy
// bounded by what one core copies: exactly min(c(W), M(W) / k) for k alike.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "redist/transport/node_memory.hpp"

namespace redist::sim {

/// Where a rank's copies run: its node's memory model and the host standing for that memory.
struct CopyResource {
  std::shared_ptr<const NodeMemory> memory;
  simgrid::s4u::Host* host = nullptr;
  /// Bytes per second of the rank's copies where they are warm (NodeMemory::warm_bandwidth of its
  /// working set and its node's); 0: cold, through the memory host.
  double warm_bandwidth = 0;
  /// Blocks the calling actor while it copies `bytes` at once, `slowdown` times the memory's work
  /// (a rank sharing its core: copy_slowdown.hpp), at the bandwidths of `bytes` copied at once.
  void copy(double bytes, double slowdown = 1) const;
};

/// A host's memory model, if it declares one (both curves or neither; the cached copies' curve and
/// cache size both or neither, and only beside the two curves). Throws std::runtime_error naming the
/// platform, the host and the property when a value is malformed or one is declared without the
/// other.
std::optional<NodeMemory> read_node_memory(const simgrid::s4u::Host& host, const std::string& platform);

/// Each rank's copy resource (rank order; empty resources where the rank's host declares no memory
/// model): one memory host per memory node (the memory.node property, else the host itself), made
/// now in a zone of its own. `working_sets`, where not empty, holds the bytes each rank's
/// redistribution touches (WorkingSet::rank): a node's working set is the sum over its ranks, and a
/// rank whose node declares cached copies gets its warm bandwidth where the rule gives one. Throws as
/// read_node_memory does, and when the hosts of one memory node declare different memories.
std::vector<CopyResource> make_copy_resources(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                              const std::string& platform, const std::vector<Index>& working_sets = {});

}  // namespace redist::sim
