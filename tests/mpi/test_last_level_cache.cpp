// The node's last-level cache as `redist-mpi localwork` reads it for `redist calibrate`
// (memory.cache_bytes): the highest level of data or unified cache the kernel lists, summed over its
// instances (each shared_cpu_list once), read from a tree laid out as /sys/devices/system/cpu.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "redist/measurements/last_level_cache.hpp"
#include "../temp_dir.hpp"

namespace redist::measurements {
namespace {

using test::TempDir;

// One cache of `cpu` as the kernel lists it: cpuN/cache/indexK/{level,type,size,shared_cpu_list}.
void cache(const TempDir& root, int cpu, int index, int level, const std::string& type, const std::string& size,
           const std::string& shared) {
  const auto dir = root / ("cpu" + std::to_string(cpu)) / "cache" / ("index" + std::to_string(index));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "level") << level << "\n";
  std::ofstream(dir / "type") << type << "\n";
  std::ofstream(dir / "size") << size << "\n";
  if (!shared.empty()) std::ofstream(dir / "shared_cpu_list") << shared << "\n";
}

// This machine's: two cores with their own 1 MiB level 2, one 32 MiB level 3 shared by both.
TEST(LastLevelCache, OneSharedInstanceIsItsSize) {
  const TempDir root("redist-llc-one");
  for (const int cpu : {0, 1}) {
    cache(root, cpu, 0, 1, "Data", "32K", std::to_string(cpu));
    cache(root, cpu, 1, 1, "Instruction", "32K", std::to_string(cpu));
    cache(root, cpu, 2, 2, "Unified", "1024K", std::to_string(cpu));
    cache(root, cpu, 3, 3, "Unified", "32768K", "0-1");
  }
  std::filesystem::create_directories(root / "cpufreq");  // not a CPU
  EXPECT_EQ(last_level_cache_bytes(root.path()), std::int64_t{32} << 20);
}

// Two level 3 instances (two dies of four cores each): the node's ranks have both, 64 MiB.
TEST(LastLevelCache, SeveralInstancesOfTheHighestLevelAddUp) {
  const TempDir root("redist-llc-two");
  for (int cpu = 0; cpu < 8; ++cpu) {
    cache(root, cpu, 0, 2, "Unified", "512K", std::to_string(cpu));
    cache(root, cpu, 1, 3, "Unified", "32M", cpu < 4 ? "0-3" : "4-7");
  }
  EXPECT_EQ(last_level_cache_bytes(root.path()), std::int64_t{64} << 20);
}

// Only instruction caches above level 2, or a malformed size: the highest data or unified level read.
TEST(LastLevelCache, OnlyDataOrUnifiedCachesOfReadableSizeCount) {
  const TempDir root("redist-llc-odd");
  cache(root, 0, 0, 2, "Unified", "2048K", "0");
  cache(root, 0, 1, 3, "Instruction", "64M", "0");
  cache(root, 0, 2, 4, "Unified", "lots", "0");
  cache(root, 1, 0, 2, "Unified", "2048K", "");  // no shared_cpu_list: its own
  EXPECT_EQ(last_level_cache_bytes(root.path()), std::int64_t{4} << 20);
}

// No tree: the C library's answer (sysconf), which a machine may or may not give.
TEST(LastLevelCache, WithoutTheTreeSysconfAnswersOrNothing) {
  const TempDir root("redist-llc-none");
  const auto bytes = last_level_cache_bytes(root / "absent");
  if (bytes) {
    EXPECT_GT(*bytes, 0);
  }
}

}  // namespace
}  // namespace redist::measurements
