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
  // The first call: its mapped blocks, freed, set the thresholds.
  Index trim_threshold = kDefaultThreshold, mmap_threshold = kDefaultThreshold;
  for (const Index b : bytes) {
    if (b <= 0 || heap_chunk(b) < kDefaultThreshold) continue;
    const Index chunk = mapped_chunk(b);
    if (chunk > mmap_threshold && chunk <= kMappedAnewFrom) {
      mmap_threshold = chunk;
      trim_threshold = 2 * chunk;
    }
  }
  // Later calls: the mapped-anew blocks; the blocks the first call mapped, taken one after another
  // from the heap's top (the first call's smaller allocations lie below them, and its last, kept for
  // reuse, keeps them from the top); the smaller blocks, in the first call's places again.
  std::array<CallBuffer, 2> buffers;
  std::array<Index, 2> top_offset{-1, -1};
  Index top = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] <= 0 || heap_chunk(bytes[i]) < kDefaultThreshold) continue;
    if (mapped_chunk(bytes[i]) > kMappedAnewFrom) {
      buffers[i] = CallBuffer::fresh_from(0);
    } else {
      top_offset[i] = top;
      top += heap_chunk(bytes[i]);
    }
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
