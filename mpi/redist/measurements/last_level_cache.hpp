// The node's last-level cache, which `redist calibrate` writes as memory.cache_bytes: where the
// working set of the ranks of a node fits it, their copies run at the warm bandwidth
// (redist/transport/node_memory.hpp). Read from the operating system, not timed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace redist::measurements {

/// The bytes of the node's last-level cache: the size of the highest level of data or unified cache
/// that /sys/devices/system/cpu/cpu*/cache/index*/ (under `cpus`) lists, times the number of its
/// instances on the node (the distinct shared_cpu_list of that level: each a cache of its own, whose
/// CPUs share it), else sysconf's _SC_LEVEL3_CACHE_SIZE, else _SC_LEVEL2_CACHE_SIZE; none where no
/// size can be read. The folders come first: on AMD processors glibc's sysconf gives the level 3
/// cache of the whole package (320 MiB on a virtual machine whose folders list the 32 MiB its two
/// cores share).
std::optional<std::int64_t> last_level_cache_bytes(const std::filesystem::path& cpus = "/sys/devices/system/cpu");

}  // namespace redist::measurements
