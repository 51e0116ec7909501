// Pieces of several messages interleaved in local storage, moved line by line: a 1x1-block layout
// receives each destination column from several ranks, element by element in turn. One strided
// pass per message writes every line k times; moving the k messages' pieces of a line together
// writes it once, in order (8-byte pieces from 4 messages: about twice as fast, bench_interleave).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <span>

#include "redist/redistribute/copy_run.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace redist {

/// The most messages moved together; beyond, each message is moved on its own.
inline constexpr std::size_t kMostInterleaved = 16;

/// Local storage from which interleaved lines are written with streaming stores. 8-byte pieces
/// from 4 streams, 4 processes on 2 cores (EPYC, 32 MiB L3): 16 MiB per process 0.52 ms instead
/// of 0.90, 32 MiB 1.04 ms instead of 2.78 (memcpy's speed); 8 MiB equal.
inline constexpr Index kStreamingBytes = Index{16} << 20;

/// Whether lines spanning `span_bytes` of local storage of `local_bytes` are written with streaming
/// stores. Short spans are not: their first and last cache lines are partly written, and a partial
/// line written so costs more than it saves (2x2 1x1 -> 2x2 64x64, 512-byte spans: 14.3 -> 18.2 ms).
inline bool streams_past_caches(Index local_bytes, Index span_bytes) {
  return local_bytes >= kStreamingBytes && span_bytes >= 4096;
}

/// One message's pieces in the lines: where its next piece sits in a line and how long it is
/// (bytes), and its contiguous data (read when unpacking, written when packing).
template <typename Stream>
struct InterleavedStream {
  Stream data;
  Index offset;
  Index bytes;
};

/// Orders the streaming stores made so far before what the process does next (another process
/// may read the lines next). Once after a sweep: a fence waits for the stores to drain.
inline void finish_streaming() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

namespace detail {

template <bool kIntoLocal, typename Local, typename Stream>
void move_piece(Local* line, Stream stream, std::size_t bytes) {
  if constexpr (kIntoLocal) {
    copy_run(line, stream, bytes);
  } else {
    copy_run(stream, line, bytes);
  }
}

// An N-byte store that bypasses the caches (x86-64's movnti), for lines written whole and in order
// into storage larger than the caches: no read of each line before it is written. Elsewhere a
// plain store.
template <std::size_t N>
void store_streaming(std::byte* to, const std::byte* from) {
#if defined(__x86_64__)
  if constexpr (N == 8) {
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

// Every stream's pieces N bytes long, each line holding them in stream order with no gap; K streams
// (0: `k`, known only at run time). The streams in a local array: stores through std::byte* may
// alias anything, and the compiler would reload them after every piece.
template <std::size_t N, std::size_t K, bool kIntoLocal, bool kStreaming, typename Local, typename Stream>
void move_lines_fixed(Local* line, Index line_bytes, const std::array<Stream, kMostInterleaved>& streams, std::size_t k,
                      Index lines) {
  constexpr std::size_t kHeld = K != 0 ? K : kMostInterleaved;
  const std::size_t count = K != 0 ? K : k;
  std::array<Stream, kHeld> held{};
  std::copy_n(streams.begin(), count, held.begin());
  for (Index c = 0; c < lines; ++c, line += line_bytes) {
    const Index at = c * static_cast<Index>(N);
    for (std::size_t m = 0; m < count; ++m) {
      if constexpr (kIntoLocal && kStreaming) {
        store_streaming<N>(line + m * N, held[m] + at);
      } else if constexpr (kIntoLocal) {
        copy_fixed<N>(line + m * N, held[m] + at);
      } else {
        copy_fixed<N>(held[m] + at, line + m * N);
      }
    }
  }
}

// The same, with two and four streams (the common cases) unrolled.
template <std::size_t N, bool kIntoLocal, bool kStreaming, typename Local, typename Stream>
void move_lines_fixed(Local* line, Index line_bytes, const std::array<Stream, kMostInterleaved>& streams, std::size_t k,
                      Index lines) {
  switch (k) {
    case 2: return move_lines_fixed<N, 2, kIntoLocal, kStreaming>(line, line_bytes, streams, k, lines);
    case 4: return move_lines_fixed<N, 4, kIntoLocal, kStreaming>(line, line_bytes, streams, k, lines);
    default: return move_lines_fixed<N, 0, kIntoLocal, kStreaming>(line, line_bytes, streams, k, lines);
  }
}

// Streaming stores for 4- and 8-byte pieces written into local storage, when asked for.
template <std::size_t N, bool kIntoLocal, typename Local, typename Stream>
void move_lines_fixed(Local* line, Index line_bytes, const std::array<Stream, kMostInterleaved>& streams, std::size_t k,
                      Index lines, bool streaming) {
  if constexpr (kIntoLocal && (N == 4 || N == 8)) {
    if (streaming) {
      return move_lines_fixed<N, kIntoLocal, true>(line, line_bytes, streams, k, lines);
    }
  }
  move_lines_fixed<N, kIntoLocal, false>(line, line_bytes, streams, k, lines);
}

}  // namespace detail

/// Moves `lines` lines starting at `line` (`line_bytes` apart): stream m's piece c between
/// `line + c * line_bytes + streams[m].offset` and `streams[m].data + c * streams[m].bytes`, into
/// local storage when kIntoLocal (unpacking), out of it otherwise (packing). At most
/// kMostInterleaved streams. `streaming`: local storage is larger than the caches, and 4- and
/// 8-byte pieces written into it bypass them (kStreamingBytes); finish_streaming() must follow.
template <bool kIntoLocal, typename Local, typename Stream>
void move_interleaved(Local* line, Index line_bytes, std::span<const InterleavedStream<Stream>> streams, Index lines,
                      bool streaming = false) {
  std::array<Stream, kMostInterleaved> data{};
  const std::size_t k = streams.size();
  const Index bytes = streams[0].bytes;
  bool packed_lines = true;  // equal pieces, in stream order, from the line's start
  for (std::size_t m = 0; m < k; ++m) {
    data[m] = streams[m].data;
    packed_lines = packed_lines && streams[m].bytes == bytes && streams[m].offset == static_cast<Index>(m) * bytes;
  }
  if (packed_lines) {
    switch (bytes) {
      case 4: return detail::move_lines_fixed<4, kIntoLocal>(line, line_bytes, data, k, lines, streaming);
      case 8: return detail::move_lines_fixed<8, kIntoLocal>(line, line_bytes, data, k, lines, streaming);
      case 16: return detail::move_lines_fixed<16, kIntoLocal, false>(line, line_bytes, data, k, lines);
      default: break;
    }
  }
  for (Index c = 0; c < lines; ++c, line += line_bytes) {
    for (std::size_t m = 0; m < k; ++m) {
      const auto n = static_cast<std::size_t>(streams[m].bytes);
      detail::move_piece<kIntoLocal>(line + streams[m].offset, data[m] + c * streams[m].bytes, n);
    }
  }
}

}  // namespace redist
