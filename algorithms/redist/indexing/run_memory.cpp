#include "redist/indexing/run_memory.hpp"

#include <bit>
#include <cstdlib>
#include <new>

#include "redist/core/kept_blocks.hpp"

namespace redist {
namespace {

constexpr std::size_t kKeptFrom = std::size_t{64} << 10;  // smaller blocks: the heap reuses them anyway
constexpr std::size_t kPage = 4096;

// A block's size class: the power of two holding it (vectors grow by doubling, so a list's blocks
// fall in successive classes and the next plan's growth finds them).
std::size_t size_class(std::size_t bytes) { return std::bit_ceil(bytes); }

void* allocate_pages(std::size_t bytes) { return std::aligned_alloc(kPage, bytes); }

// Never destroyed: run lists in static storage may give their blocks back after any destructor.
KeptBlocks& pool() {
  static KeptBlocks* const instance = new KeptBlocks(allocate_pages, true);
  return *instance;
}

}  // namespace

void* run_memory::take(std::size_t bytes) {
  if (bytes < kKeptFrom) return ::operator new(bytes);
  if (bytes > std::size_t{1} << 62) throw std::bad_alloc();  // no power of two holds it
  return pool().take(size_class(bytes)).data;
}

void run_memory::give_back(void* block, std::size_t bytes) noexcept {
  if (bytes < kKeptFrom) {
    ::operator delete(block);
    return;
  }
  pool().give_back({block, size_class(bytes)});
}

std::size_t run_memory::kept_bytes() { return pool().kept_bytes(); }

void release_run_memory() { pool().release(); }

}  // namespace redist
