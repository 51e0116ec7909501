// Large memory blocks kept between calls for the next ones, under redist's one rule for memory a
// process keeps (docs/ARCHITECTURE.md §8, "Kept between calls"): when a block comes back, the kept
// blocks and those in use together are brought within the most ever in use at once, the least
// recently returned kept blocks freed first. A fresh block is fresh pages, and the first touch of each
// faults into the kernel, which zeroes it — often as costly as the work done in it — so the next
// call gets back the blocks of the calls before. Run lists (indexing/run_memory.hpp) and the MPI
// layer's message buffers (redist/mpi/message_memory_cache.hpp) keep theirs here. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <utility>

namespace redist {

class KeptBlocks {
 public:
  /// Fresh blocks come from `allocate(capacity)` (null when out of memory) and go to std::free.
  /// With `exact_fit`, a kept block is handed out only for its own capacity (for callers that give
  /// blocks back by the size they asked for); else the smallest kept block that fits.
  KeptBlocks(void* (*allocate)(std::size_t capacity), bool exact_fit) : allocate_(allocate), exact_fit_(exact_fit) {}
  KeptBlocks(const KeptBlocks&) = delete;
  KeptBlocks& operator=(const KeptBlocks&) = delete;
  ~KeptBlocks() { release(); }

  struct Block {
    void* data;
    std::size_t capacity;
  };

  /// A block of at least `capacity` bytes: a kept one, else fresh (std::bad_alloc if none).
  Block take(std::size_t capacity);
  /// Takes back what take() handed out, to keep or free under the rule above.
  void give_back(Block block) noexcept;
  /// Bytes of the blocks kept (not in use).
  std::size_t kept_bytes();
  /// Frees every kept block (blocks in use are freed or kept when they come back).
  void release();

 private:
  struct Kept {
    Block block;
    std::uint64_t returned;  // the how-manieth block given back
  };
  using ReturnOrder = std::list<Kept>;  // least recently returned first
  // (capacity, returned): a kept block found by size, the most recently returned of a size first.
  using ByCapacity = std::map<std::pair<std::size_t, std::uint64_t>, ReturnOrder::iterator>;
  void forget(ByCapacity::iterator entry);

  void* (*allocate_)(std::size_t);
  bool exact_fit_;
  std::mutex mutex_;
  ReturnOrder kept_;
  ByCapacity by_capacity_;
  std::uint64_t returned_ = 0;
  std::size_t kept_bytes_ = 0, in_use_ = 0, most_in_use_ = 0;
};

}  // namespace redist
