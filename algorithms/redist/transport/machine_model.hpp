// What predicting a redistribution's time needs to know of a machine (for `auto`): the prices
// of local work, where the ranks run, and the links each message crosses. The simulator derives it
// from a SimGrid platform (sim/redist/sim/machine_model_from_platform.hpp); predicting from it (redist/predict) costs
// arithmetic only, no simulation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/transport/message_regime.hpp"
#include "redist/transport/node_memory.hpp"
#include "redist/transport/ranks_per_core.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// One network link of the machine.
struct ModelLink {
  double bandwidth = 0;  ///< bytes per second
  /// Flows crossing a shared link divide its bandwidth; a fat pipe gives each flow all of it.
  bool shared = true;
  /// What it carries when a host holds more ranks than cores (0: none declared), measured as an
  /// all-to-all of two ranks per core: the messages of such a host are then copied by their
  /// receivers' CPUs, at this / cores (message_copy_rate, message_regime.hpp; sim/redist/sim/oversubscribed_bandwidth.hpp).
  double oversubscribed_bandwidth = 0;
  /// The same measured at each level of ranks per core, where declared (ranks_per_core.hpp): it then
  /// takes the place of oversubscribed_bandwidth.
  PiecewiseCurve oversubscribed_bandwidths{};
  friend bool operator==(const ModelLink&, const ModelLink&) = default;
};

/// The links a message from one host to another crosses, and its latency.
struct ModelRoute {
  std::vector<std::size_t> links;  ///< indices into MachineModel::links
  double latency = 0;              ///< seconds
  friend bool operator==(const ModelRoute&, const ModelRoute&) = default;
};

struct MachineModel {
  WorkPrices prices;             ///< every host alike (the simulator's platforms are homogeneous)
  Index hosts = 1;               ///< rank i runs on host i mod hosts
  /// Cores of each host: the ranks on a host share them fairly, as an OS shares a node's cores
  /// among more processes than it has (no rank runs on two cores at once).
  Index cores = 1;
  std::vector<ModelLink> links;
  std::vector<ModelRoute> routes;  ///< hosts × hosts: from a to b at a·hosts + b (a == b: on one host)
  /// Seconds of one barrier when the machine has a hardware one (the CM-5's control network); else
  /// barriers are dissemination barriers of zero-byte messages.
  double barrier_latency = -1;
  /// The ranks share one node's memory (Transport::shares_memory): an asynchronous exchange hands
  /// messages over in place (redistribute/shared_memory_exchange.hpp), its comm two barriers.
  bool shared_memory = false;
  /// Each node's memory, shared by its ranks' copies (node_memory.hpp); none: a byte copied costs
  /// prices' ByteCopied, whoever else copies.
  std::optional<NodeMemory> memory;
  /// Seconds of a time slice, where declared (0: none): a host holding more ranks than cores then
  /// keeps each rank to one core (the k-th rank of a host on core k mod cores) and runs a core's
  /// ranks in turn (sim/redist/sim/core_turns.hpp); without it, they share all the host's cores.
  double time_slice = 0;
  /// Bytes per second at which a rank's CPU copies a message to or from another rank of its host,
  /// where the host holds more ranks than cores (run_by sets it; 0: messages cross the links).
  double message_copy_rate = 0;
  /// The factor on a rank's copies at each level of ranks per core, where declared (ranks_per_core.hpp).
  PiecewiseCurve copy_slowdowns{};
  /// The factor on each rank's copies in this run (run_by sets it; 1: none).
  double copy_slowdown = 1;
  /// The factor on a rank's other work at each level of ranks per core, where declared.
  PiecewiseCurve work_slowdowns{};
  /// The factor on each rank's other work in this run (run_by sets it; 1: none).
  double work_slowdown = 1;
  /// The core time lost each time a core passes from one of its ranks to another, at each level of
  /// ranks per core, where declared (ranks_per_core.hpp; sim/redist/sim/core_turns.hpp).
  PiecewiseCurve switch_costs{};
  /// That cost in this run, where its ranks take turns on their cores (run_by sets it; 0: none):
  /// a rank that waited for a message takes its core back from another once per message received.
  double switch_cost = 0;
  /// The most ranks a host holds in the run the model is for (run_by sets it; 0: not known).
  Index ranks_per_host = 0;

  Index host_of(Index rank) const { return rank % hosts; }
  /// How many ranks of a run of `ranks` copy at once beside `rank` (itself included), when every rank
  /// of a node copies at once: those of its node, at most one per core.
  Index copying_with(Index rank, Index ranks) const {
    if (shared_memory) return std::min(ranks, hosts * cores);
    const Index on_host = ranks / hosts + (host_of(rank) < ranks % hosts ? 1 : 0);
    return std::min(on_host, cores);
  }
  /// The sum of `of(r)` over the ranks r of a run of `ranks` that share `rank`'s node memory (every
  /// rank where the hosts share one memory): what the node's caches hold of their calls.
  template <class PerRank>
  double over_node(Index rank, Index ranks, PerRank of) const {
    double sum = 0;
    for (Index r = 0; r < ranks; ++r) {
      if (shared_memory || host_of(r) == host_of(rank)) sum += of(r);
    }
    return sum;
  }
  /// Seconds `work` takes on one rank when `copying` ranks of its node copy at once and the calls of
  /// the node's ranks touch `touched` bytes (over_node; NodeMemory::copy_seconds; 0: the copy's own):
  /// its copies at the memory's bandwidth, by `loop`, the rest at the prices (all at the prices
  /// without a memory model).
  double seconds_for(const Work& work, Index copying, CopyLoop loop = CopyLoop::Pack, double touched = 0) const {
    const Index bytes = work.count(WorkKind::ByteCopied);
    if (!memory || bytes == 0) return prices.seconds_for(work);
    Work rest = work;
    rest.add(WorkKind::ByteCopied, -bytes);
    return prices.seconds_for(rest) + memory->copy_seconds(static_cast<double>(bytes), copying, loop, touched);
  }
  /// Some host holds more of `ranks` ranks than it has cores.
  bool oversubscribed(Index ranks) const { return ranks_outnumber_cores((ranks + hosts - 1) / hosts, cores); }
  /// How a message from rank `from` to rank `to` travels (message_regime.hpp), sent as a message:
  /// CPU copies only in a model run_by made.
  MessageRegime regime(Index from, Index to) const {
    return message_regime({.shared_publication = false,
                           .same_host = from != to && host_of(from) == host_of(to),
                           .ranks_on_host = ranks_per_host,
                           .cores = cores,
                           .copy_rate = message_copy_rate});
  }
  /// The model as a run of `ranks` ranks sees it, when that differs from this one: a host holds
  /// more ranks than cores (L ranks per core, host 0's: homogeneous hosts, every host taken to hold
  /// as many ranks as the busiest), and its route to itself crosses a link that declares an
  /// oversubscribed bandwidth B at L (the smallest): its ranks' messages to each other are copies by
  /// their receivers' CPUs, at B / cores; or the host declares a copy slowdown at L, by which its ranks'
  /// copies take longer, or a work slowdown, by which the rest of their work does; or, where its
  /// ranks take turns on their cores (time_slice), a switch cost at L, which each message received
  /// costs its receiver's core (the simulator's SimGridTransport and CoreTurn alike).
  std::optional<MachineModel> run_by(Index ranks) const {
    if (routes.empty()) return std::nullopt;
    const Index per_host = (ranks + hosts - 1) / hosts;
    const double level = ranks_per_core(per_host, cores);
    std::vector<double> declared;
    for (std::size_t link : route(0, 0).links) {
      const ModelLink& l = links.at(link);
      declared.push_back(oversubscribed_bandwidth_at(l.oversubscribed_bandwidth, l.oversubscribed_bandwidths, level));
    }
    MachineModel out = *this;
    out.ranks_per_host = per_host;
    out.message_copy_rate = redist::message_copy_rate(declared, cores);
    out.copy_slowdown = slowdown_at(copy_slowdowns, level);
    out.work_slowdown = slowdown_at(work_slowdowns, level);
    out.switch_cost = time_slice > 0 ? switch_cost_at(switch_costs, level) : 0.0;
    // Ranks 0 and `hosts` share host 0.
    if (out.regime(0, hosts) != MessageRegime::CpuCopies && out.copy_slowdown == 1 && out.work_slowdown == 1 &&
        out.switch_cost == 0) {
      return std::nullopt;
    }
    return out;
  }
  /// seconds_for with the run's copy slowdown on the copies of `work`, its work slowdown on the rest.
  double run_seconds_for(const Work& work, Index copying, CopyLoop loop = CopyLoop::Pack, double touched = 0) const {
    if (copy_slowdown == 1 && work_slowdown == 1) return seconds_for(work, copying, loop, touched);
    const auto [copies, rest] = split_copies(work);
    return work_slowdown * seconds_for(rest, copying) + copy_slowdown * seconds_for(copies, copying, loop, touched);
  }
  /// Seconds the busiest host takes for work `rank_seconds[r]` of each rank r: its ranks' sum over
  /// its cores, or its longest rank's, whichever is more (a rank runs on one core at a time); where
  /// ranks keep to their cores (time_slice), the sum of the busiest core's ranks.
  double busiest_host(const std::vector<double>& rank_seconds) const {
    const auto ranks = static_cast<Index>(rank_seconds.size());
    if (time_slice > 0 && oversubscribed(ranks)) {
      std::vector<double> on_core(static_cast<std::size_t>(hosts * cores), 0.0);
      for (Index rank = 0; rank < ranks; ++rank) {
        on_core[static_cast<std::size_t>(host_of(rank) * cores + (rank / hosts) % cores)] +=
            rank_seconds[static_cast<std::size_t>(rank)];
      }
      return *std::max_element(on_core.begin(), on_core.end());
    }
    std::vector<double> total(static_cast<std::size_t>(hosts), 0.0), longest(total.size(), 0.0);
    for (std::size_t rank = 0; rank < rank_seconds.size(); ++rank) {
      const auto host = static_cast<std::size_t>(host_of(static_cast<Index>(rank)));
      total[host] += rank_seconds[rank];
      longest[host] = std::max(longest[host], rank_seconds[rank]);
    }
    double busiest = 0;
    for (std::size_t host = 0; host < total.size(); ++host) {
      busiest = std::max({busiest, longest[host], total[host] / static_cast<double>(cores)});
    }
    return busiest;
  }
  const ModelRoute& route(Index from_host, Index to_host) const {
    const auto at = static_cast<std::size_t>(from_host * hosts + to_host);
    if (from_host < 0 || to_host < 0 || from_host >= hosts || to_host >= hosts || at >= routes.size()) {
      throw std::out_of_range("machine model: no route from host " + std::to_string(from_host) + " to host " +
                              std::to_string(to_host) + " of " + std::to_string(hosts));
    }
    return routes[at];
  }
  friend bool operator==(const MachineModel&, const MachineModel&) = default;
};

}  // namespace redist
