// Pieces of several messages interleaved in local storage, moved line by line: a 1x1-block layout
// receives each destination column from several ranks, element by element in turn. One strided
// pass per message writes every line k times; moving the k messages' pieces of a line together
// writes it once, in order (8-byte pieces from 4 messages, 32 MiB: 1.9 ms instead of 3.8).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>

#include "redist/redistribute/copy_run.hpp"
#include "redist/redistribute/streaming_copy.hpp"

namespace redist {

/// The most messages moved together; beyond, each message is moved on its own.
inline constexpr std::size_t kMostInterleaved = 16;

/// The fewest lines a group of interleaved messages is moved together for: below, finding the
/// group costs more than it saves (16-line groups, 4x2 1x1 -> 4x2 64x64 on 8 ranks: 22.9-23.4 ms
/// moved together, 21.5-21.8 ms each message on its own).
inline constexpr Index kFewestInterleavedLines = 32;

/// The most streams one pass over the lines moves; the pieces of more go in several passes, the
/// lines staying in the caches between them. Each stream written holds a write-combining buffer
/// (streaming stores) or an L1 way (streams a power of two apart fall in one set), and there are 8
/// of either: 16 streams of 8-byte pieces packed from 16 MiB took 19 ms in one pass and 2.3 ms in
/// two (EPYC; 8 streams 1.0-1.2 ms).
inline constexpr std::size_t kStreamsAtOnce = 8;

/// One message's pieces in the lines: where its next piece sits in a line and how long it is
/// (bytes), and its contiguous data (read when unpacking, written when packing).
template <typename Stream>
struct InterleavedStream {
  Stream data;
  Index offset;
  Index bytes;
};

namespace detail {

template <bool kIntoLocal, typename Local, typename Stream>
void move_piece(Local* line, Stream stream, std::size_t bytes, bool streaming) {
  if constexpr (kIntoLocal) {
    streaming ? stream_run(line, stream, bytes) : copy_run(line, stream, bytes);
  } else {
    streaming ? stream_run(stream, line, bytes) : copy_run(stream, line, bytes);
  }
}

// Every stream's pieces N bytes long, each line holding them in stream order with no gap; K streams
// (0: `k`, known only at run time). The streams in a local array: stores through std::byte* may
// alias anything, and the compiler would reload them after every piece.
template <std::size_t N, std::size_t K, bool kIntoLocal, bool kStreaming, typename Local, typename Stream>
void move_lines_unrolled(Local* line, Index line_bytes, const std::array<Stream, kMostInterleaved>& streams,
                         std::size_t k, Index lines) {
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
      } else if constexpr (kStreaming) {
        store_streaming<N>(held[m] + at, line + m * N);
      } else {
        copy_fixed<N>(held[m] + at, line + m * N);
      }
    }
  }
}

// The same, two and four streams (the common cases) unrolled.
template <std::size_t N, bool kIntoLocal, bool kStreaming, typename Local, typename Stream>
void move_lines_by_count(Local* line, Index line_bytes, const std::array<Stream, kMostInterleaved>& streams,
                         std::size_t k, Index lines) {
  switch (k) {
    case 2: return move_lines_unrolled<N, 2, kIntoLocal, kStreaming>(line, line_bytes, streams, k, lines);
    case 4: return move_lines_unrolled<N, 4, kIntoLocal, kStreaming>(line, line_bytes, streams, k, lines);
    default: return move_lines_unrolled<N, 0, kIntoLocal, kStreaming>(line, line_bytes, streams, k, lines);
  }
}

// The same, with streaming stores when asked.
template <std::size_t N, bool kIntoLocal, typename Local, typename Stream>
void move_lines_fixed(Local* line, Index line_bytes, const std::array<Stream, kMostInterleaved>& streams, std::size_t k,
                      Index lines, bool streaming) {
  if (streaming) return move_lines_by_count<N, kIntoLocal, true>(line, line_bytes, streams, k, lines);
  move_lines_by_count<N, kIntoLocal, false>(line, line_bytes, streams, k, lines);
}

}  // namespace detail

/// Moves `lines` lines starting at `line` (`line_bytes` apart): stream m's piece c between
/// `line + c * line_bytes + streams[m].offset` and `streams[m].data + c * streams[m].bytes`, into
/// local storage when kIntoLocal (unpacking), out of it otherwise (packing). At most
/// kMostInterleaved streams. `streaming`: what is written (local storage when unpacking, the
/// streams when packing) is larger than the caches, and is written with streaming stores
/// (streaming_copy.hpp); finish_streaming() must follow.
template <bool kIntoLocal, typename Local, typename Stream>
void move_interleaved(Local* line, Index line_bytes, std::span<const InterleavedStream<Stream>> streams, Index lines,
                      bool streaming = false) {
  if (streams.size() > kStreamsAtOnce) {
    for (std::size_t first = 0; first < streams.size(); first += kStreamsAtOnce) {
      const auto part = streams.subspan(first, std::min(kStreamsAtOnce, streams.size() - first));
      std::array<InterleavedStream<Stream>, kStreamsAtOnce> shifted{};  // offsets from the part's first piece
      for (std::size_t m = 0; m < part.size(); ++m) {
        shifted[m] = {part[m].data, part[m].offset - part[0].offset, part[m].bytes};
      }
      const std::span<const InterleavedStream<Stream>> moved(shifted.data(), part.size());
      move_interleaved<kIntoLocal>(line + part[0].offset, line_bytes, moved, lines, streaming);
    }
    return;
  }
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
      case 16: return detail::move_lines_fixed<16, kIntoLocal>(line, line_bytes, data, k, lines, streaming);
      default: break;
    }
  }
  for (Index c = 0; c < lines; ++c, line += line_bytes) {
    for (std::size_t m = 0; m < k; ++m) {
      const auto n = static_cast<std::size_t>(streams[m].bytes);
      detail::move_piece<kIntoLocal>(line + streams[m].offset, data[m] + c * streams[m].bytes, n, streaming);
    }
  }
}

}  // namespace redist
