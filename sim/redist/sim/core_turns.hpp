// Ranks taking turns on the cores of a host that holds more ranks than cores, as an operating
// system runs MPI processes that poll while they wait: each rank stays on one core (the k-th rank
// of a host on core k mod cores: a process that never sleeps is never moved); a core runs one of
// its ranks at a time, which keeps it until it waits for a message (MPI's progress loop yields the
// CPU when processes outnumber cores) or until its time slice is over; a rank wanting its core
// waits for it in arrival order. Declared by the host property cpu.time_slice; without it, ranks
// sharing a host share its cores in proportion to their work (SimGridTransport::settle).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "redist/core/piecewise_curve.hpp"
#include "redist/transport/platform_properties.hpp"

namespace redist::sim {

// Host property kTimeSliceProperty (platform_properties.hpp): seconds a rank computes on its core
// before a rank waiting for that core takes it, where the host's ranks outnumber its cores.

/// One core of an oversubscribed host, which its ranks take in turn.
struct Core {
  simgrid::s4u::SemaphorePtr free;  ///< one token
  double time_slice = 0;
  /// Core time lost each time the core passes from one rank to another (redist.switch_cost at the
  /// host's ranks per core): the kernel's switch, and the turns of the core's other ranks, which
  /// poll while they wait, before the one whose message came gets back to work.
  double switch_cost = 0;
  long last_holder = -1;  ///< the rank that held the core last (-1: none yet)
};

/// The host's time slice, where it declares one. Throws std::runtime_error naming the platform for
/// one that is not a positive number of seconds.
std::optional<double> read_time_slice(const simgrid::s4u::Host& host, const std::string& platform);

/// The host's switch cost curve over ranks per core (redist.switch_cost), empty where it declares
/// none. Throws std::runtime_error naming the platform and the host for a value that is not such a curve.
PiecewiseCurve read_switch_costs(const simgrid::s4u::Host& host, const std::string& platform);

/// For each rank's host (`rank_hosts`): the core the rank takes in turn with the other ranks on it,
/// where the host declares cpu.time_slice and holds more of these ranks than cores; null elsewhere.
/// Throws std::runtime_error naming the platform for a time slice that is not a positive number.
std::vector<std::shared_ptr<Core>> assign_cores(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                                const std::string& platform);

/// One rank's turns on its core (called from that rank's actor).
class CoreTurn {
 public:
  CoreTurn(std::shared_ptr<Core> core, long rank) : core_(std::move(core)), rank_(rank) {}

  /// Computes `seconds` on the core: takes it, and gives it up at each end of a time slice to the
  /// ranks waiting for it. `traced`: as executions on `host`, shown in traces; else as sleeps.
  void compute(double seconds, simgrid::s4u::Host& host, bool traced);
  /// Takes the core, if not holding it: before work that runs elsewhere but occupies the CPU (a copy
  /// through the node's memory), and when the rank wakes from a wait (a rank enters the call without
  /// it: compute() takes it when work comes). Taken from another rank, the core first loses its
  /// switch cost.
  void hold();
  /// Gives the core up (the rank is about to wait, or ends).
  void yield();

 private:
  std::shared_ptr<Core> core_;
  long rank_;
  bool holding_ = false;
  double held_since_ = 0;
};

}  // namespace redist::sim
