// Running an algorithm on a simulated platform: one S4U actor per rank, each given a Transport.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "redist/transport/platform_properties.hpp"
#include "redist/transport/transport.hpp"

namespace redist::sim {

struct SimulationOptions {
  std::string platform_file;            ///< SimGrid XML
  int ranks = 0;                        ///< number of ranks (actors)
  std::vector<std::string> rank_hosts;  ///< host of each rank; empty = "node-0", "node-1", ...
                                        ///< (ranks may share a host when given explicitly)
  bool phantom = false;                 ///< payload sizes only, no bytes
  /// Every rank's source lies in storage the other ranks read in place (redist::mpi's
  /// SharedArray), so that redist's exchange may copy messages once; only where the ranks share
  /// memory (ignored elsewhere).
  bool sources_shared = false;
  std::string trace_file;               ///< if non-empty: SimGrid Paje trace written there
  /// The bytes of each rank's memory its call touches (touched_bytes.hpp): a node's memory model
  /// prices a rank's copies by the sum over the ranks of its node; empty: each copy's own bytes.
  std::vector<double> touched_bytes;
};

// Host properties the simulation reads (names in platform_properties.hpp's table):
// - kBarrierLatencyProperty declares a hardware control network (the CM-5's): seconds a barrier takes
//   once the last rank has entered it. When every rank's host has it, barrier() costs that instead of
//   messages.
// - kMemoryNodeProperty names the memory a host's cores share ("0"): when every rank's host names the
//   same one, the ranks share memory (Transport::shares_memory), as MPI ranks of one node do.
// - kScanLatencyProperty, kReduceLatencyProperty and kScanPerWordProperty price a control network's
//   combining hardware (the CM-5's, see platforms/README.md): a vector scan or reduction of m words
//   costs latency + (m - 1) × control.scan_per_word. When every rank's host has control.scan_latency,
//   Transport::control_prefix_reduction_sum runs on it.

/// What simulate() runs on every rank; its string is that rank's result.
using RankBody = std::function<std::string(Transport&)>;

/// Runs body(transport) as one S4U actor per rank in a FRESH simulation and returns each rank's
/// returned string (rank order). SimGrid allows one engine per process, so each call runs the
/// simulation in a forked child process and ships the results (and any error) back through a pipe.
/// Throws std::runtime_error with a one-line message for a bad platform or option, a rank whose body
/// throws or returns with requests still pending, a deadlock, or a crash of the simulation.
std::vector<std::string> simulate(const SimulationOptions& options, const RankBody& body);

}  // namespace redist::sim
