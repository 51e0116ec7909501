// How many of a run's ranks share each rank's host: whether a rank's host is shared, and whether its
// ranks outnumber its cores (core turns, messages copied by CPUs).
#pragma once

#include <map>
#include <vector>

#include <simgrid/s4u/Host.hpp>

namespace redist::sim {

/// For each rank (its host in `rank_hosts`): the run's ranks on that host, itself included.
inline std::vector<int> ranks_on_host(const std::vector<simgrid::s4u::Host*>& rank_hosts) {
  std::map<const simgrid::s4u::Host*, int> on;
  for (const simgrid::s4u::Host* host : rank_hosts) ++on[host];
  std::vector<int> out;
  out.reserve(rank_hosts.size());
  for (const simgrid::s4u::Host* host : rank_hosts) out.push_back(on[host]);
  return out;
}

}  // namespace redist::sim
