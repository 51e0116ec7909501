#include "redist/mpi/message_memory_cache.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>

#include "redist/core/kept_blocks.hpp"

namespace redist::mpi {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

void* huge_page_block(std::size_t capacity) {
  void* data = std::aligned_alloc(kHugePage, capacity);
  if (data != nullptr) madvise(data, capacity, MADV_HUGEPAGE);  // advice only: without THP, plain pages
  return data;
}

// Any kept block that fits will do: an exchange's sizes vary from call to call.
KeptBlocks& message_blocks() {
  static KeptBlocks blocks(huge_page_block, false);
  return blocks;
}

}  // namespace

MessageMemory cached_message_memory(std::size_t bytes) {
  const std::size_t capacity = std::max(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
  const KeptBlocks::Block block = message_blocks().take(capacity);
  return MessageMemory(static_cast<std::byte*>(block.data),
                       [capacity = block.capacity](std::byte* data) { message_blocks().give_back({data, capacity}); });
}

void release_cached_message_memory() { message_blocks().release(); }

}  // namespace redist::mpi
