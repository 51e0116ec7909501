// Copies that bypass the caches: for destinations written whole and in order that are larger than
// the caches (a packed message, an interleaved line, a long piece of a large array), streaming
// stores spare the read of each cache line before it is written, and the data that other copies
// will read again stays in cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "redist/redistribute/copy_run.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace redist {

/// Destinations from which streaming stores pay. Interleaved lines of 8-byte pieces
/// from 4 streams, 4 processes on 2 cores (EPYC, 32 MiB L3): 16 MiB per process 0.52 ms instead
/// of 0.90, 32 MiB 1.04 ms instead of 2.78 (memcpy's speed); 8 MiB equal.
inline constexpr Index kStreamingBytes = Index{16} << 20;

/// Whether lines spanning `span_bytes` of local storage of `local_bytes` are written with streaming
/// stores. Short spans are not: their first and last cache lines are partly written, and a partial
/// line written so costs more than it saves (2x2 1x1 -> 2x2 64x64, 512-byte spans: 14.3 -> 18.2 ms).
inline bool streams_past_caches(Index local_bytes, Index span_bytes) {
  return local_bytes >= kStreamingBytes && span_bytes >= 4096;
}

/// Orders the streaming stores made so far before what the process does next (another process
/// may read the lines next). Once after a sweep: a fence waits for the stores to drain.
inline void finish_streaming() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

/// An N-byte store (4, 8 or 16) that bypasses the caches (x86-64's movnti, no alignment needed);
/// elsewhere a plain store.
template <std::size_t N>
void store_streaming(std::byte* to, const std::byte* from) {
  static_assert(N == 4 || N == 8 || N == 16);
#if defined(__x86_64__)
  if constexpr (N == 16) {
    store_streaming<8>(to, from);
    store_streaming<8>(to + 8, from + 8);
    return;
  } else if constexpr (N == 8) {
    long long value = 0;
    std::memcpy(&value, from, 8);
    _mm_stream_si64(reinterpret_cast<long long*>(to), value);
    return;
  } else if constexpr (N == 4) {
    int value = 0;
    std::memcpy(&value, from, 4);
    _mm_stream_si32(reinterpret_cast<int*>(to), value);
    return;
  }
#endif
  copy_fixed<N>(to, from);
}

/// Copies n bytes with streaming stores when `to` and n are multiples of 8 (all of an element's
/// lines then written so), else plainly.
inline void stream_run(std::byte* to, const std::byte* from, std::size_t n) {
#if defined(__x86_64__)
  if ((reinterpret_cast<std::uintptr_t>(to) | n) % 8 == 0) {
    if (reinterpret_cast<std::uintptr_t>(to) % 16 != 0 && n >= 8) {
      store_streaming<8>(to, from);
      to += 8, from += 8, n -= 8;
    }
    for (; n >= 16; to += 16, from += 16, n -= 16) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(to), _mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
    }
    if (n == 8) store_streaming<8>(to, from);
    return;
  }
#endif
  copy_run(to, from, n);
}

}  // namespace redist
