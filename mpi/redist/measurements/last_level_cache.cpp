#include "redist/measurements/last_level_cache.hpp"

#include <unistd.h>

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <system_error>

namespace redist::measurements {
namespace {

namespace fs = std::filesystem;

// The first line of a file, its spaces trimmed; empty where it cannot be read.
std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

// A cache's size as the kernel writes it: "32768K", "1024K", "32M", or bytes; none when it is not one.
std::optional<std::int64_t> cache_size(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) ++digits;
  if (digits == 0 || digits > 12) return std::nullopt;
  const std::int64_t number = std::stoll(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  std::int64_t scale = 0;
  if (unit.empty()) scale = 1;
  if (unit == "K") scale = std::int64_t{1} << 10;
  if (unit == "M") scale = std::int64_t{1} << 20;
  if (unit == "G") scale = std::int64_t{1} << 30;
  if (scale == 0 || number <= 0) return std::nullopt;
  return number * scale;
}

// The folders' answer: each level's instances (by their CPUs) and size, the highest level summed.
std::optional<std::int64_t> from_folders(const fs::path& cpus) {
  std::map<int, std::map<std::string, std::int64_t>> by_level;  // level -> shared_cpu_list -> bytes
  std::error_code error;
  for (fs::directory_iterator cpu(cpus, error), end; !error && cpu != end; cpu.increment(error)) {
    const std::string name = cpu->path().filename().string();
    if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 ||
        name.find_first_not_of("0123456789", 3) != std::string::npos) {
      continue;
    }
    std::error_code inner;
    for (fs::directory_iterator index(cpu->path() / "cache", inner), stop; !inner && index != stop; index.increment(inner)) {
      if (index->path().filename().string().rfind("index", 0) != 0) continue;
      const std::string type = first_line(index->path() / "type");
      if (type != "Data" && type != "Unified") continue;
      const std::string level_text = first_line(index->path() / "level");
      const std::string shared = first_line(index->path() / "shared_cpu_list");
      const auto size = cache_size(first_line(index->path() / "size"));
      if (level_text.empty() || level_text.find_first_not_of("0123456789") != std::string::npos ||
          level_text.size() > 2 || !size) {
        continue;
      }
      // An instance read without its CPUs counts as the CPU's own.
      by_level[std::stoi(level_text)][shared.empty() ? name : shared] = *size;
    }
  }
  if (by_level.empty()) return std::nullopt;
  std::int64_t total = 0;
  for (const auto& [cpus_of, bytes] : by_level.rbegin()->second) total += bytes;
  return total;
}

}  // namespace

std::optional<std::int64_t> last_level_cache_bytes(const fs::path& cpus) {
  if (const auto folders = from_folders(cpus)) return folders;
  for (const int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    const long bytes = sysconf(name);
    if (bytes > 0) return static_cast<std::int64_t>(bytes);
  }
  return std::nullopt;
}

}  // namespace redist::measurements
