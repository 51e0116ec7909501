#include "redist/core/kept_blocks.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>

namespace redist {

KeptBlocks::Block KeptBlocks::take(std::size_t capacity) {
  {
    const std::lock_guard lock(mutex_);
    auto fit = by_capacity_.lower_bound({capacity, 0});
    if (fit != by_capacity_.end() && (!exact_fit_ || fit->first.first == capacity)) {
      // Of the blocks of that size, the one returned last: its pages the most likely still cached.
      fit = std::prev(by_capacity_.upper_bound({fit->first.first, std::numeric_limits<std::uint64_t>::max()}));
      const Block block = fit->second->block;
      forget(fit);
      in_use_ += block.capacity;
      most_in_use_ = std::max(most_in_use_, in_use_);  // then a block given back always fits
      return block;
    }
    in_use_ += capacity;
    most_in_use_ = std::max(most_in_use_, in_use_);
  }
  void* data = allocate_(capacity);
  if (data == nullptr) {
    const std::lock_guard lock(mutex_);
    in_use_ -= capacity;
    throw std::bad_alloc();
  }
  return {data, capacity};
}

void KeptBlocks::give_back(Block block) noexcept {
  const std::lock_guard lock(mutex_);
  in_use_ -= block.capacity;
  try {
    kept_.push_back({block, returned_});
    try {
      by_capacity_.emplace(std::pair{block.capacity, returned_}, std::prev(kept_.end()));
    } catch (const std::bad_alloc&) {
      kept_.pop_back();
      throw;
    }
  } catch (const std::bad_alloc&) {  // no room to note it: free it instead
    std::free(block.data);
    return;
  }
  ++returned_;
  kept_bytes_ += block.capacity;
  // The block just returned was in use, within the most: freeing older ones always makes room for it.
  while (kept_bytes_ + in_use_ > most_in_use_) {
    const Kept oldest = kept_.front();
    forget(by_capacity_.find({oldest.block.capacity, oldest.returned}));
    std::free(oldest.block.data);
  }
}

void KeptBlocks::forget(ByCapacity::iterator entry) {
  kept_bytes_ -= entry->second->block.capacity;
  kept_.erase(entry->second);
  by_capacity_.erase(entry);
}

std::size_t KeptBlocks::kept_bytes() {
  const std::lock_guard lock(mutex_);
  return kept_bytes_;
}

void KeptBlocks::release() {
  const std::lock_guard lock(mutex_);
  for (const Kept& kept : kept_) std::free(kept.block.data);
  kept_.clear();
  by_capacity_.clear();
  kept_bytes_ = 0;
}

}  // namespace redist
