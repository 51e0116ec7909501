#include "redist/core/memory_budget.hpp"

#include <cstdio>

#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace redist {
namespace {

std::optional<std::uint64_t>& configured_limit() {
  static std::optional<std::uint64_t> limit;
  return limit;
}

std::optional<std::uint64_t> mem_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t kib = 0;
    if (fields >> name >> kib && name == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

std::string human(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace

void set_memory_limit(std::optional<std::uint64_t> bytes) { configured_limit() = bytes; }

std::uint64_t memory_limit() {
  if (configured_limit()) return *configured_limit();
  return mem_available().value_or(std::numeric_limits<std::uint64_t>::max());
}

void require_memory(std::optional<std::uint64_t> need, const std::string& what, const std::string& alternative) {
  const std::uint64_t limit = memory_limit();
  if (need && *need <= limit) return;
  const std::string source = configured_limit() ? "--max-memory" : "MemAvailable";
  const std::string amount =
      need ? "about " + human(*need) + " (" + std::to_string(*need) + " bytes)" : "more than 2^64 bytes";
  throw std::invalid_argument(what + " needs " + amount + " of memory, more than the " + human(limit) + " available (" +
                              source + ")" + (alternative.empty() ? "" : "; " + alternative));
}

std::optional<std::uint64_t> bytes_product(std::optional<std::uint64_t> a, std::uint64_t b) {
  std::uint64_t product = 0;
  if (!a || __builtin_mul_overflow(*a, b, &product)) return std::nullopt;
  return product;
}

}  // namespace redist
