// One way to read an input file whole (a platform, a scenario, a journal): only a regular file, and
// only up to a bound, checked on the open file before anything is read. A device (/dev/zero), a
// FIFO or a directory would be read without end, block, or fail obscurely late; a file far larger
// than any input of its kind would be read whole into memory first.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace redist::os {

/// Bounds of the inputs redist reads whole.
inline constexpr std::uint64_t kMaxYamlBytes = 16ull << 20;      // scenarios and fit specifications
inline constexpr std::uint64_t kMaxPlatformBytes = 256ull << 20;  // SimGrid platforms of many thousand hosts

/// The bytes of `path`. Throws std::invalid_argument "KIND PATH: REASON" (KIND: "platform",
/// "scenario", ...) when it is missing, not a regular file, or larger than `max_bytes`; the open
/// never blocks (a FIFO is refused, not waited on).
std::string read_input_file(const std::filesystem::path& path, std::uint64_t max_bytes, const std::string& kind);

}  // namespace redist::os
