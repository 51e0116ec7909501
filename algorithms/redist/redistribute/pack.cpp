#include "redist/redistribute/pack.hpp"

#include <cstring>

namespace redist {

void pack(const PeerPlan& plan, std::span<const std::byte> local, Index elem_bytes, std::byte* buffer) {
  for (const Run& run : plan.runs) {
    const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
    std::memcpy(buffer, local.data() + run.local_start * elem_bytes, bytes);
    buffer += bytes;
  }
}

void unpack(const PeerPlan& plan, const std::byte* buffer, Index elem_bytes, std::span<std::byte> local) {
  for (const Run& run : plan.runs) {
    const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
    std::memcpy(local.data() + run.local_start * elem_bytes, buffer, bytes);
    buffer += bytes;
  }
}

}  // namespace redist
