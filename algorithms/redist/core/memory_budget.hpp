// Memory before allocation: a run that holds real payload or per-element tables estimates its peak
// from its layouts first and is refused when that exceeds the memory available, instead of
// growing for seconds and ending in std::bad_alloc (or the OOM killer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace redist {

/// Bytes the run may use: `--max-memory` when set (set_memory_limit), else MemAvailable from
/// /proc/meminfo (no limit when it cannot be read), or the address space left under `ulimit -v`
/// when that is less. Forked simulations inherit the setting.
void set_memory_limit(std::optional<std::uint64_t> bytes);
std::uint64_t memory_limit();

/// Throws std::invalid_argument("<what> needs about X of memory, more than the Y available
/// (MemAvailable|--max-memory|address space left under ulimit -v); <alternative>") when `need` exceeds memory_limit(). `need` is
/// std::nullopt when its computation overflowed 64 bits.
void require_memory(std::optional<std::uint64_t> need, const std::string& what, const std::string& alternative);

/// a x b, or nothing when it overflows.
std::optional<std::uint64_t> bytes_product(std::optional<std::uint64_t> a, std::uint64_t b);

}  // namespace redist
