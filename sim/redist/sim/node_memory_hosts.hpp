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
  /// The bytes the calls of its node's ranks touch, its own included (touched_bytes.hpp; 0: not known).
  double touched = 0;
  /// Blocks the calling actor while it copies `bytes` at once by `loop`, `slowdown` times the memory's
  /// work (a rank sharing its core: core_sharing_slowdowns.hpp), at the bandwidths the curves give
  /// those bytes in a call that touches `touched` (NodeMemory::copy_seconds).
  void copy(double bytes, double slowdown = 1, CopyLoop loop = CopyLoop::Pack) const;
};

/// A host's memory model, if it declares one (both curves or neither), with its loop factors where
/// declared. Throws std::runtime_error naming the platform, the host and the property when a curve
/// is malformed or alone, or a factor is not a positive number.
std::optional<NodeMemory> read_node_memory(const simgrid::s4u::Host& host, const std::string& platform);

/// Each rank's copy resource (rank order; empty resources where the rank's host declares no memory
/// model): one memory host per memory node (the memory.node property, else the host itself), made
/// now in a zone of its own. Throws as read_node_memory does, and when the hosts of one memory node
/// declare different curves.
std::vector<CopyResource> make_copy_resources(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                              const std::string& platform);

}  // namespace redist::sim
