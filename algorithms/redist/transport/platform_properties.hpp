// The platform properties redist knows (docs/ARCHITECTURE.md §4-5): one table of every name a SimGrid
// platform file may declare for redist, with its unit, the element that carries it, the code that
// reads it and what it means. The readers take their names from here, the platform check refuses a
// name in one of the table's namespaces that the table does not hold (a misspelt price would
// otherwise be read as absent), and `redist platform-properties` prints the table that
// platforms/README.md shows. A new property is a row here, its reader and its use.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace redist {

/// The platform element whose <prop> declares a property.
enum class PropertyHolder { Host, Link, RootZone };

struct PlatformProperty {
  std::string_view name;
  std::string_view unit;
  PropertyHolder holder;
  std::string_view reader;   ///< the source that reads it; empty: informative, read by nothing
  std::string_view meaning;  ///< one line
};

/// Every property, the work kinds' prices first in WorkKind's order (price_property reads them so).
inline constexpr std::array kPlatformProperties = {
    PlatformProperty{"cost.index_op", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one integer index computation (div/mod, owner or local-index formula)"},
    PlatformProperty{"cost.table_entry", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one entry of a packing, unpacking, class or compression table built"},
    PlatformProperty{"cost.intersection", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one interval or line-segment intersection computed"},
    PlatformProperty{"cost.element_scanned", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one element visited one at a time (owner scan, mask scan)"},
    PlatformProperty{"cost.byte_copied", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one byte moved by pack, unpack or a local copy (where no memory.* curves are declared)"},
    PlatformProperty{"cost.run_copied", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "start-up of one contiguous run copied"},
    PlatformProperty{"cost.run_listed", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one run written to a plan's run list (redist's own indexing output)"},
    PlatformProperty{"cost.allocation", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one block allocated and first touched by the papers' programs (optional: 0)"},
    PlatformProperty{"cost.record_copied", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one run-list or intersection record read by a copy loop (optional: 0)"},
    PlatformProperty{"cost.element_copied", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one element copied on its own by pdgemr2d's loops, beyond its bytes (optional: 0)"},
    PlatformProperty{"cost.byte_faulted", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "one byte written for the first time since the process was given it: the page fault "
                     "and zeroing (optional: 0)"},
    PlatformProperty{"cost.send_overhead", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "host CPU time of posting one send"},
    PlatformProperty{"cost.recv_overhead", "s", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "host CPU time of completing one receive"},
    PlatformProperty{"memory.node", "name", PropertyHolder::Host, "sim/redist/sim/host_costs.cpp",
                     "the memory a host's cores share: ranks whose hosts name the same one share memory"},
    PlatformProperty{"memory.copy_bandwidth", "B/s by bytes", PropertyHolder::Host,
                     "sim/redist/sim/node_memory_hosts.cpp",
                     "c(W): one rank's copy bandwidth by bytes copied at once (piecewise curve)"},
    PlatformProperty{"memory.node_bandwidth", "B/s by bytes", PropertyHolder::Host,
                     "sim/redist/sim/node_memory_hosts.cpp",
                     "M(W): the node's memory bandwidth shared by its ranks copying at once (piecewise curve)"},
    PlatformProperty{"memory.pack_factor", "factor", PropertyHolder::Host, "sim/redist/sim/node_memory_hosts.cpp",
                     "a pack loop's memory time over a plain copy's of its bytes (optional: 1)"},
    PlatformProperty{"memory.unpack_factor", "factor", PropertyHolder::Host, "sim/redist/sim/node_memory_hosts.cpp",
                     "an unpack loop's memory time over a plain copy's of its bytes (optional: 1)"},
    PlatformProperty{"memory.sweep_factor", "factor", PropertyHolder::Host, "sim/redist/sim/node_memory_hosts.cpp",
                     "the memory time of several messages unpacked in one sweep over a plain copy's of their bytes "
                     "(optional: the unpack's)"},
    PlatformProperty{"cpu.time_slice", "s", PropertyHolder::Host, "sim/redist/sim/core_turns.cpp",
                     "how long a rank computes on its core before a rank waiting for that core takes it"},
    PlatformProperty{"control.barrier_latency", "s", PropertyHolder::Host, "sim/redist/sim/simulation.cpp",
                     "a control network's barrier, once the last rank has entered it"},
    PlatformProperty{"control.scan_latency", "s", PropertyHolder::Host, "sim/redist/sim/simulation.cpp",
                     "a control network's integer prefix scan of one word per node"},
    PlatformProperty{"control.reduce_latency", "s", PropertyHolder::Host, "sim/redist/sim/simulation.cpp",
                     "a control network's integer reduction of one word per node, result everywhere"},
    PlatformProperty{"control.scan_per_word", "s", PropertyHolder::Host, "sim/redist/sim/simulation.cpp",
                     "each further word of a control network's vector scan or reduction"},
    PlatformProperty{"control.float_reduce_latency", "s", PropertyHolder::Host, "",
                     "a control network's floating-point reduction"},
    PlatformProperty{"control.broadcast_latency", "s", PropertyHolder::Host, "",
                     "a control network's broadcast of one word to all nodes"},
    PlatformProperty{"control.word_bytes", "bytes", PropertyHolder::Host, "",
                     "width of one control network combine"},
    PlatformProperty{"hockney.t0", "s", PropertyHolder::Host, "",
                     "the published one-message start-up time the platform reproduces"},
    PlatformProperty{"hockney.r_inf", "B/s", PropertyHolder::Host, "",
                     "the published asymptotic message bandwidth the platform reproduces"},
    PlatformProperty{"redist.oversubscribed_bandwidth", "B/s", PropertyHolder::Link,
                     "sim/redist/sim/oversubscribed_bandwidth.cpp",
                     "all-to-all bandwidth of a node's ranks at two per core, on the node's route to itself"},
    PlatformProperty{"redist.oversubscribed_bandwidths", "B/s by ranks per core", PropertyHolder::Link,
                     "sim/redist/sim/oversubscribed_bandwidth.cpp",
                     "all-to-all bandwidth of a node's ranks beyond its cores, by ranks per core (piecewise "
                     "curve; replaces the single value)"},
    PlatformProperty{"redist.switch_cost", "s by ranks per core", PropertyHolder::Host,
                     "sim/redist/sim/core_turns.cpp",
                     "core time lost each time a core passes from one of its ranks to another, by ranks per "
                     "core (piecewise curve)"},
    PlatformProperty{"redist.work_slowdown", "factor by ranks per core", PropertyHolder::Host,
                     "sim/redist/sim/core_sharing_slowdowns.cpp",
                     "how much longer a rank's other work than its copies takes than taking turns on a shared core "
                     "gives, by ranks per core (piecewise curve)"},
    PlatformProperty{"redist.copy_slowdown", "factor by ranks per core", PropertyHolder::Host,
                     "sim/redist/sim/core_sharing_slowdowns.cpp",
                     "how much longer copies take than taking turns on a shared core gives, by ranks per "
                     "core (piecewise curve)"},
    PlatformProperty{"redist.latency_factors", "factor by bytes", PropertyHolder::RootZone,
                     "sim/redist/sim/network_factors.cpp",
                     "latency factor by message size, \"size:factor;...\" (SimGrid's syntax)"},
    PlatformProperty{"redist.bandwidth_factors", "factor by bytes", PropertyHolder::RootZone,
                     "sim/redist/sim/network_factors.cpp",
                     "bandwidth factor by message size, \"size:factor;...\" (SimGrid's syntax)"},
};

/// The table's row named `name`; a name the table lacks does not compile where it is a constant.
consteval const PlatformProperty& platform_property(std::string_view name) {
  for (const auto& property : kPlatformProperties) {
    if (property.name == name) return property;
  }
  throw "not a property of kPlatformProperties";
}

/// "host", "link", "root zone".
std::string_view property_holder_name(PropertyHolder holder);

/// The row named `name`, or nullptr.
const PlatformProperty* find_platform_property(std::string_view name);

/// Whether `name` lies in a namespace of the table ("cost.", "memory.", ...): a name there that the
/// table lacks is a mistake, where names of other namespaces belong to SimGrid or to other tools.
bool in_property_namespace(std::string_view name);

/// The table as Markdown (property, unit, declared on, read by, meaning): platforms/README.md's list.
std::string platform_properties_markdown();

// The names the readers use.
inline constexpr std::string_view kSendOverheadProperty = platform_property("cost.send_overhead").name;
inline constexpr std::string_view kRecvOverheadProperty = platform_property("cost.recv_overhead").name;
inline constexpr std::string_view kMemoryNodeProperty = platform_property("memory.node").name;
inline constexpr std::string_view kCopyBandwidthProperty = platform_property("memory.copy_bandwidth").name;
inline constexpr std::string_view kNodeBandwidthProperty = platform_property("memory.node_bandwidth").name;
inline constexpr std::string_view kPackFactorProperty = platform_property("memory.pack_factor").name;
inline constexpr std::string_view kUnpackFactorProperty = platform_property("memory.unpack_factor").name;
inline constexpr std::string_view kSweepFactorProperty = platform_property("memory.sweep_factor").name;
inline constexpr std::string_view kTimeSliceProperty = platform_property("cpu.time_slice").name;
inline constexpr std::string_view kBarrierLatencyProperty = platform_property("control.barrier_latency").name;
inline constexpr std::string_view kScanLatencyProperty = platform_property("control.scan_latency").name;
inline constexpr std::string_view kReduceLatencyProperty = platform_property("control.reduce_latency").name;
inline constexpr std::string_view kScanPerWordProperty = platform_property("control.scan_per_word").name;
inline constexpr std::string_view kOversubscribedBandwidthProperty =
    platform_property("redist.oversubscribed_bandwidth").name;
inline constexpr std::string_view kOversubscribedBandwidthsProperty =
    platform_property("redist.oversubscribed_bandwidths").name;
inline constexpr std::string_view kCopySlowdownProperty = platform_property("redist.copy_slowdown").name;
inline constexpr std::string_view kWorkSlowdownProperty = platform_property("redist.work_slowdown").name;
inline constexpr std::string_view kSwitchCostProperty = platform_property("redist.switch_cost").name;
inline constexpr std::string_view kLatencyFactorsProperty = platform_property("redist.latency_factors").name;
inline constexpr std::string_view kBandwidthFactorsProperty = platform_property("redist.bandwidth_factors").name;

}  // namespace redist
