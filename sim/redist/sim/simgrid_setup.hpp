// Creating the process's one SimGrid engine with everything it must know before a platform loads.
#pragma once

#include <memory>
#include <string>

#include <simgrid/s4u/Engine.hpp>

namespace redist::sim {

/// SimGrid defaults we choose for every platform (docs/ARCHITECTURE.md §5, platforms/README.md); a platform's own
/// <config> block still overrides them, because they are installed as defaults, not as user settings.
inline constexpr const char* kNetworkModel = "CM02";
inline constexpr double kTcpGamma = 1e12;  ///< bytes: a window so large it never limits bandwidth

/// The engine, with SimGrid's logging silenced (critical messages only: they end up in diagnostics),
/// the network model defaults installed (CM02, no cross traffic, kTcpGamma), the context factory
/// chosen for the build (threads under AddressSanitizer), the process's freed memory kept for reuse
/// (glibc's trimming made runs that free large plans rank after rank page-fault-bound) and, when `trace_file` is not empty, Paje
/// tracing of actors and resources into it. Call once per process.
std::unique_ptr<simgrid::s4u::Engine> create_engine(const std::string& trace_file);

}  // namespace redist::sim
