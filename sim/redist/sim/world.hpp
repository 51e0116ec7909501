// What the ranks of one simulation share: placement and prices, the matcher and its mailboxes, the
// control-network barrier, and the first error. SimGrid runs one actor at a time (also with the
// thread context factory), so nothing here needs a lock.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "redist/sim/core_turns.hpp"
#include "redist/sim/matcher.hpp"
#include "redist/sim/node_memory_hosts.hpp"
#include "redist/transport/in_process_publication.hpp"
#include "redist/transport/work.hpp"

namespace redist::sim {

class SimGridTransport;

/// Costs of the control network's scans and reductions (seconds), one count per combined word.
struct ControlScanCosts {
  double scan_latency = 0;
  double reduce_latency = 0;
  double per_word = 0;
};

struct RankPlacement {
  simgrid::s4u::Host* host = nullptr;
  WorkPrices prices;  ///< read once per host
  /// Where its copies run when its node's memory is modelled (no memory: a byte copied costs
  /// cost.byte_copied of CPU).
  CopyResource copies;
  /// The core it takes in turn with the other ranks on it, where its host holds more ranks than
  /// cores and declares a time slice (core_turns.hpp); null elsewhere.
  std::shared_ptr<Core> core;
  /// The run's ranks on its host (itself included) and the host's cores: with message_copy_rate,
  /// what decides whether its messages to the others there are CPU copies (message_regime.hpp).
  Index ranks_on_host = 1;
  Index cores = 1;
  /// Bytes per second at which its CPU copies a message to or from another rank of its host
  /// (oversubscribed_bandwidth.hpp), where the ranks outnumber the host's cores; 0: none declared.
  double message_copy_rate = 0;
  /// The factor on its copies, where its host holds more ranks than cores (core_sharing_slowdowns.hpp); 1 elsewhere.
  double copy_slowdown = 1;
  /// The factor on the rest of its work, likewise (core_sharing_slowdowns.hpp); 1 elsewhere.
  double work_slowdown = 1;
};

class World {
 public:
  /// `barrier_latency`: seconds of a hardware barrier, or empty to run barriers as messages.
  World(std::string platform, std::vector<RankPlacement> placement, bool phantom,
        std::optional<double> barrier_latency);

  const std::string& platform() const { return platform_; }
  Rank size() const { return static_cast<Rank>(placement_.size()); }
  bool phantom() const { return phantom_; }
  const RankPlacement& placement(Rank rank) const { return placement_[static_cast<std::size_t>(rank)]; }
  /// Whether another rank runs on the host of `rank`.
  bool host_is_shared(Rank rank) const { return host_shared_[static_cast<std::size_t>(rank)]; }

  Matcher& matcher() { return matcher_; }
  simgrid::s4u::Mailbox* mailbox(Channel channel);
  /// A channel for one message's acknowledgement (its receiver to its sender), and its mailbox;
  /// released by the sender once the acknowledgement has come.
  Channel take_acknowledgement();
  void release_acknowledgement(Channel channel) { free_acknowledgements_.push_back(channel); }
  simgrid::s4u::Mailbox* acknowledgement_mailbox(Channel channel);

  const std::optional<double>& barrier_latency() const { return barrier_latency_; }
  /// The synchronisation point of the hardware barrier, shared by all ranks.
  simgrid::s4u::Barrier& control_barrier();

  /// The control network's scan hardware, if the platform has one.
  void set_control_scan(std::optional<ControlScanCosts> costs) { control_scan_ = costs; }
  const std::optional<ControlScanCosts>& control_scan() const { return control_scan_; }
  /// Where each rank leaves its vector for a control-network scan.
  std::vector<std::vector<Index>>& scan_inputs() { return scan_inputs_; }

  /// Whether the ranks share one node's memory: every rank's host declares the same memory.node.
  void set_shared_memory(bool shared) { shared_memory_ = shared; }
  bool shared_memory() const { return shared_memory_; }
  /// Whether every rank's source lies in storage the others read in place (redist::mpi's
  /// SharedArray): the run option `sources: shared`; only where the ranks share memory.
  void set_sources_shared(bool shared) { sources_shared_ = shared; }
  bool sources_shared() const { return sources_shared_; }
  /// What the ranks publish (Transport's shared publication; areas empty in phantom runs).
  InProcessPublications& publications() { return publications_; }
  const InProcessPublications& publications() const { return publications_; }

  /// Transports register themselves so that a deadlock report can say what each rank waits for.
  void attach(Rank rank, const SimGridTransport* transport);
  void detach(Rank rank);

  /// Keeps the first error of the run (later ones are consequences).
  void fail(const std::string& message);
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  /// One line naming what every blocked rank waits for.
  std::string deadlock_report() const;

 private:
  std::string platform_;
  std::vector<RankPlacement> placement_;
  std::vector<bool> host_shared_;  // by rank, counted once (each rank asking would be P² host comparisons)
  bool phantom_;
  std::optional<double> barrier_latency_;
  Matcher matcher_;
  std::vector<simgrid::s4u::Mailbox*> mailboxes_;
  std::vector<simgrid::s4u::Mailbox*> acknowledgement_mailboxes_;
  std::vector<Channel> free_acknowledgements_;  // reused last-in first-out
  Channel next_acknowledgement_ = 0;
  simgrid::s4u::BarrierPtr control_barrier_;
  std::optional<ControlScanCosts> control_scan_;
  std::vector<std::vector<Index>> scan_inputs_;
  bool shared_memory_ = false;
  bool sources_shared_ = false;
  InProcessPublications publications_;
  std::vector<const SimGridTransport*> transports_;
  std::string error_;
};

}  // namespace redist::sim
