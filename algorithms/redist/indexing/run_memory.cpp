#include "redist/indexing/run_memory.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <vector>

namespace redist {
namespace {

constexpr std::size_t kKeptFrom = std::size_t{64} << 10;  // smaller blocks: the heap reuses them anyway
constexpr std::size_t kPage = 4096;

// A block's size class: the power of two holding it (vectors grow by doubling, so a list's blocks
// fall in successive classes and the next plan's growth finds them).
std::size_t size_class(std::size_t bytes) { return std::bit_ceil(bytes); }

class Pool {
 public:
  void* take(std::size_t bytes) {
    if (bytes > std::size_t{1} << 62) throw std::bad_alloc();  // no power of two holds it
    const std::size_t size = size_class(bytes);
    {
      const std::lock_guard lock(mutex_);
      in_use_ += size;
      most_in_use_ = std::max(most_in_use_, in_use_);
      auto& blocks = free_[size];
      if (!blocks.empty()) {
        void* block = blocks.back();
        blocks.pop_back();
        kept_ -= size;
        return block;
      }
    }
    void* block = std::aligned_alloc(kPage, size);
    if (block == nullptr) {
      const std::lock_guard lock(mutex_);
      in_use_ -= size;
      throw std::bad_alloc();
    }
    return block;
  }

  void give_back(void* block, std::size_t bytes) noexcept {
    const std::size_t size = size_class(bytes);
    {
      const std::lock_guard lock(mutex_);
      in_use_ -= size;
      if (kept_ + in_use_ + size <= most_in_use_) {
        try {
          free_[size].push_back(block);
          kept_ += size;
          return;
        } catch (const std::bad_alloc&) {  // no room to note it: free it instead
        }
      }
    }
    std::free(block);
  }

  std::size_t kept() {
    const std::lock_guard lock(mutex_);
    return kept_;
  }

  void release() {
    const std::lock_guard lock(mutex_);
    for (auto& [size, blocks] : free_) {
      for (void* block : blocks) std::free(block);
    }
    free_.clear();
    kept_ = 0;
  }

 private:
  std::mutex mutex_;
  std::map<std::size_t, std::vector<void*>> free_;  // kept blocks by size class
  std::size_t kept_ = 0, in_use_ = 0, most_in_use_ = 0;
};

// Never destroyed: run lists in static storage may give their blocks back after any destructor.
Pool& pool() {
  static Pool* const instance = new Pool;
  return *instance;
}

}  // namespace

void* run_memory::take(std::size_t bytes) {
  if (bytes < kKeptFrom) return ::operator new(bytes);
  return pool().take(bytes);
}

void run_memory::give_back(void* block, std::size_t bytes) noexcept {
  if (bytes < kKeptFrom) {
    ::operator delete(block);
    return;
  }
  pool().give_back(block, bytes);
}

std::size_t run_memory::kept_bytes() { return pool().kept(); }

void release_run_memory() { pool().release(); }

}  // namespace redist
