#include "redist/mpi/message_memory_cache.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace redist::mpi {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// An exchange holds two blocks (send and receive areas); a few more let sizes alternate.
constexpr std::size_t kKeptBlocks = 4;

struct Block {
  std::byte* data;
  std::size_t capacity;
};

std::byte* allocate(std::size_t capacity) {
  void* data = std::aligned_alloc(kHugePage, capacity);
  if (data == nullptr) throw std::bad_alloc();
  madvise(data, capacity, MADV_HUGEPAGE);  // advice only: without THP, plain pages
  return static_cast<std::byte*>(data);
}

class Cache {
 public:
  MessageMemory take(std::size_t bytes) {
    const std::size_t capacity = std::max(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
    Block block{nullptr, 0};
    {
      const std::lock_guard lock(mutex_);
      // The smallest kept block that fits.
      auto best = free_.end();
      for (auto it = free_.begin(); it != free_.end(); ++it) {
        if (it->capacity >= capacity && (best == free_.end() || it->capacity < best->capacity)) best = it;
      }
      if (best != free_.end()) {
        block = *best;
        free_.erase(best);
      }
    }
    if (block.data == nullptr) block = {allocate(capacity), capacity};
    return MessageMemory(block.data, [this, capacity = block.capacity](std::byte* data) { give_back({data, capacity}); });
  }

  void release() {
    const std::lock_guard lock(mutex_);
    for (const Block& block : free_) std::free(block.data);
    free_.clear();
  }

  ~Cache() { release(); }

 private:
  // Keeps the most recently returned blocks: the next call most likely needs the same sizes.
  void give_back(Block block) {
    const std::lock_guard lock(mutex_);
    free_.push_back(block);
    if (free_.size() > kKeptBlocks) {
      std::free(free_.front().data);
      free_.erase(free_.begin());
    }
  }

  std::mutex mutex_;
  std::vector<Block> free_;
};

Cache& cache() {
  static Cache instance;
  return instance;
}

}  // namespace

MessageMemory cached_message_memory(std::size_t bytes) { return cache().take(bytes); }

void release_cached_message_memory() { cache().release(); }

}  // namespace redist::mpi
