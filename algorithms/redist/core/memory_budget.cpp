#include "redist/core/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

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

// The address space left under `ulimit -v` (RLIMIT_AS), less what the process maps already; nothing
// without a limit. An allocation past it fails with bad_alloc whatever MemAvailable says.
std::optional<std::uint64_t> address_space_left() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  statm >> pages;
  const std::uint64_t mapped = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const auto cap = static_cast<std::uint64_t>(limit.rlim_cur);
  return cap > mapped ? cap - mapped : 0;
}

// The limit in force and what sets it.
std::pair<std::uint64_t, std::string> limit_and_source() {
  if (configured_limit()) return {*configured_limit(), "--max-memory"};
  const std::uint64_t available = mem_available().value_or(std::numeric_limits<std::uint64_t>::max());
  const auto address_space = address_space_left();
  if (address_space && *address_space < available) return {*address_space, "address space left under ulimit -v"};
  return {available, "MemAvailable"};
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

std::uint64_t memory_limit() { return limit_and_source().first; }

void require_memory(std::optional<std::uint64_t> need, const std::string& what, const std::string& alternative) {
  const auto [limit, source] = limit_and_source();
  if (need && *need <= limit) return;
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
