#include "redist/pdgemr2d/call_buffer.hpp"

#include <array>

namespace redist {
namespace {

constexpr Index kDefaultThreshold = Index{128} << 10;  // M_MMAP_THRESHOLD and M_TRIM_THRESHOLD at start
constexpr Index kTopPad = Index{128} << 10;            // M_TOP_PAD: what trimming leaves and growing adds
constexpr Index kPage = 4096;

Index round_up(Index value, Index unit) { return ceil_div(value, unit) * unit; }
// A heap chunk: the bytes and their size field, 16-byte aligned (request2size).
Index heap_chunk(Index bytes) { return round_up(bytes + 8, 16); }
// A mapped chunk: a heap chunk and its header, whole pages.
Index mapped_chunk(Index bytes) { return round_up(heap_chunk(bytes) + 8, kPage); }

}  // namespace

CallBuffers call_buffers(Index send_bytes, Index receive_bytes) {
  const std::array<Index, 2> bytes{send_bytes, receive_bytes};
  // The blocks the first call mapped (its smaller ones it took from the heap, and later calls take
  // them again in their places). Those mapped anew every call set no threshold; the others, freed,
  // set both, and later calls take them one after another from the heap's top (the first call's
  // smaller allocations lie below them, and its last, kept for reuse, keeps them from the top).
  Index trim_threshold = kDefaultThreshold, mmap_threshold = kDefaultThreshold;
  std::array<CallBuffer, 2> buffers;
  std::array<Index, 2> top_offset{-1, -1};
  Index top = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] <= 0 || heap_chunk(bytes[i]) < kDefaultThreshold) continue;
    const Index chunk = mapped_chunk(bytes[i]);
    if (chunk >= kMappedAnewFrom) {
      buffers[i] = CallBuffer::fresh_from(0);
      continue;
    }
    if (chunk > mmap_threshold) {
      mmap_threshold = chunk;
      trim_threshold = 2 * chunk;
    }
    top_offset[i] = top;
    top += heap_chunk(bytes[i]);
  }
  // Freed, those join the top, which growing for them left M_TOP_PAD beyond them.
  if (top > 0 && top + kTopPad >= trim_threshold) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (top_offset[i] >= 0) buffers[i] = CallBuffer::fresh_from(kTopPad - top_offset[i]);
    }
  }
  return {buffers[0], buffers[1]};
}

}  // namespace redist
