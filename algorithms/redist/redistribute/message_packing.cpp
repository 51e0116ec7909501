#include "redist/redistribute/message_packing.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <vector>

#include "redist/redistribute/copy_run.hpp"
#include "redist/redistribute/interleaved_pieces.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/piece_cursor.hpp"
#include "redist/redistribute/streaming_copy.hpp"

namespace redist {
namespace {

// Pack side: a run's local pieces into a contiguous buffer, with streaming stores when asked
// (streaming_copy.hpp); returns the end of what was written.
std::byte* gather(const Run& run, const std::byte* local, Index elem_bytes, std::byte* to, bool streaming = false) {
  const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
  const std::byte* from = local + run.local_start * elem_bytes;
  if (streaming) {
    for (Index c = 0; c < run.count; ++c, from += run.stride * elem_bytes) {
      stream_run(to + c * static_cast<Index>(bytes), from, bytes);
    }
  } else if (run.count == 1) {
    copy_run(to, from, bytes);
  } else {
    copy_pieces(to, static_cast<Index>(bytes), from, run.stride * elem_bytes, run.count, bytes);
  }
  return to + run.count * static_cast<Index>(bytes);
}

// Unpack side: a contiguous buffer into a run's local pieces; returns the end of what was read.
const std::byte* scatter(const Run& run, const std::byte* from, Index elem_bytes, std::byte* local) {
  const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
  std::byte* to = local + run.local_start * elem_bytes;
  if (run.count == 1) {
    copy_run(to, from, bytes);
  } else {
    copy_pieces(to, run.stride * elem_bytes, from, static_cast<Index>(bytes), run.count, bytes);
  }
  return from + run.count * static_cast<Index>(bytes);
}

// One plan's progress through a window sweep: its next run and the next piece of that run.
struct SweepCursor {
  std::size_t run = 0;
  Index piece = 0;
};

// Visits the pieces of `plan` from `cursor` on that start before local element `end`, in the plan's
// order, a run's pieces in the window together: move(start, stride, length, count) in elements.
// Returns where it stopped.
template <typename Move>
SweepCursor sweep_until(const PeerPlan& plan, SweepCursor cursor, Index end, Move& move) {
  const RunList& runs = plan.runs;
  const Run* run = runs.data() + cursor.run;
  const Run* const last = runs.data() + runs.size();
  Index piece = cursor.piece;
  for (; run != last; ++run, piece = 0) {
    const Index start = run->local_start + piece * run->stride;
    if (start >= end) break;  // the rest lies beyond this window
    Index pieces = run->count - piece;
    if (run->stride > 0) pieces = std::min(pieces, (end - start + run->stride - 1) / run->stride);
    move(start, run->stride, run->length, pieces);
    piece += pieces;
    if (piece < run->count) break;
  }
  return {static_cast<std::size_t>(run - runs.data()), piece};
}

// Where a plan's current run lies in a window: its next piece, and how many of its pieces there are
// from there to the window's end.
struct RunInWindow {
  std::size_t plan;
  Index start;
  Index length;
  Index stride;
  Index pieces;
};

// At most kMostInterleaved of them, kept without allocating: found once or more per window.
struct RunsInWindow {
  std::array<RunInWindow, kMostInterleaved> runs;
  std::size_t size = 0;
};

// The plans' current strided runs of short pieces with at least two pieces before `end`, sorted by
// start; none when there are more than kMostInterleaved. Pieces of a cache line or more gain
// nothing: each message's own pass already moves whole lines.
RunsInWindow short_strided_runs(std::span<const PeerPlan* const> plans, std::span<const SweepCursor> cursors, Index end,
                                Index elem_bytes) {
  constexpr Index kLineBytes = 64;
  RunsInWindow found;
  for (std::size_t k = 0; k < plans.size(); ++k) {
    const RunList& runs = plans[k]->runs;
    if (cursors[k].run >= runs.size()) continue;
    const Run& run = runs[cursors[k].run];
    const Index start = run.local_start + cursors[k].piece * run.stride;
    if (run.stride <= 0 || start >= end || run.length * elem_bytes >= kLineBytes) continue;
    const Index pieces = std::min(run.count - cursors[k].piece, (end - start + run.stride - 1) / run.stride);
    if (pieces < 2) continue;
    if (found.size == kMostInterleaved) return {};
    found.runs[found.size++] = {k, start, run.length, run.stride, pieces};
  }
  std::sort(found.runs.begin(), found.runs.begin() + static_cast<std::ptrdiff_t>(found.size),
            [](const RunInWindow& x, const RunInWindow& y) { return x.start < y.start; });
  return found;
}

// The first group of runs (sorted by start) that interleave: the same stride, each run's pieces
// right after the previous run's, together filling the stride. Empty when none.
std::span<const RunInWindow> interleaving_group(std::span<const RunInWindow> sorted) {
  for (std::size_t first = 0; first + 1 < sorted.size(); ++first) {
    Index filled = sorted[first].length;
    for (std::size_t last = first + 1; last < sorted.size(); ++last) {
      const RunInWindow& run = sorted[last];
      if (run.stride != sorted[first].stride || run.start != sorted[first].start + filled) break;
      filled += run.length;
      if (filled == run.stride) return sorted.subspan(first, last - first + 1);
    }
  }
  return {};
}

// Moves that can take part in an interleaved group: each gives where its next elements are (or go)
// and how many of them are contiguous there, and is told when they are moved.
template <typename Move>
concept Interleavable = requires(Move move, Index elements) {
  move.stream();
  move.contiguous();
  move.consumed(elements);
  Move::kIntoLocal;
};

// Whether a group's pass writes with streaming stores: into local storage larger than the caches
// over a long enough span (streams_past_caches), or into messages gathered with them (gathers()).
template <typename Move>
bool writes_streaming(std::span<const RunInWindow> group, std::span<const Move> moves, Index local_bytes,
                      Index span_bytes) {
  if constexpr (Move::kIntoLocal) {
    return streams_past_caches(local_bytes, span_bytes);
  } else {
    return std::ranges::all_of(group, [&](const RunInWindow& run) { return moves[run.plan].streams(); });
  }
}

// Moves one group's lines while its runs last in the window, as many at a time as every stream
// holds contiguously (a direct copy's source piece may end first). Returns whether it moved any:
// then the group may have changed (a run ended, or the window's end came), and the caller looks
// again; if not, a pass would not pay (a stream holds too few lines).
template <typename Move, typename Local>
bool move_group(std::span<RunInWindow> group, std::span<const PeerPlan* const> plans, std::span<SweepCursor> cursors,
                std::span<Move> moves, Local* local, Index local_bytes, Index elem_bytes) {
  using Stream = decltype(moves[0].stream());
  std::array<InterleavedStream<Stream>, kMostInterleaved> streams;
  for (bool moved = false;; moved = true) {
    Index lines = std::ranges::min(group, {}, &RunInWindow::pieces).pieces;
    for (const RunInWindow& run : group) lines = std::min(lines, moves[run.plan].contiguous() / run.length);
    if (lines < kFewestInterleavedLines) return moved;
    for (std::size_t m = 0; m < group.size(); ++m) {
      const RunInWindow& run = group[m];
      streams[m] = {moves[run.plan].stream(), (run.start - group[0].start) * elem_bytes, run.length * elem_bytes};
    }
    const Index line_bytes = group[0].stride * elem_bytes;
    move_interleaved<Move::kIntoLocal>(local + group[0].start * elem_bytes, line_bytes,
                                       std::span<const InterleavedStream<Stream>>(streams.data(), group.size()), lines,
                                       writes_streaming<Move>(group, moves, local_bytes, line_bytes * lines));
    bool run_ended = false;
    for (RunInWindow& run : group) {
      moves[run.plan].consumed(lines * run.length);
      SweepCursor& cursor = cursors[run.plan];
      cursor.piece += lines;
      run.start += lines * run.stride;
      run.pieces -= lines;
      if (cursor.piece == plans[run.plan]->runs[cursor.run].count) {
        cursor = {cursor.run + 1, 0};
        run_ended = true;
      }
    }
    if (run_ended) return true;
  }
}

// Moves, in this window, the pieces of plans whose current runs interleave (interleaved_pieces.hpp),
// line by line, and advances their cursors and moves; the sweep moves the rest as usual.
template <typename Move, typename Local>
void move_interleaved_groups(std::span<const PeerPlan* const> plans, std::span<SweepCursor> cursors,
                             std::span<Move> moves, Local* local, Index local_bytes, Index end, Index elem_bytes) {
  for (;;) {
    RunsInWindow runs = short_strided_runs(plans, cursors, end, elem_bytes);
    const std::span<const RunInWindow> found = interleaving_group(std::span(runs.runs.data(), runs.size));
    if (found.empty()) return;
    const std::span<RunInWindow> group(runs.runs.data() + (found.data() - runs.runs.data()), found.size());
    if (!move_group(group, plans, cursors, moves, local, local_bytes, elem_bytes)) return;
  }
}

// Visits the runs of every plan, local storage a cache-sized window at a time for all plans
// together, each plan's runs in its own order: moves[k] moves plan k's pieces (a cursor into its
// message, or the local part's other side). A strided run is cut at window ends like the rest (it
// may span the whole local array). Plans whose pieces interleave in a window are moved together
// there, when their moves allow it.
template <typename Move, typename Local>
void sweep_windows(std::span<const PeerPlan* const> plans, std::vector<Move>& moves, Index elem_bytes, Local* local,
                   Index local_bytes) {
  constexpr Index kWindowBytes = Index{1} << 15;  // a window stays in L1/L2 while all peers visit it
  const Index window = std::max<Index>(1, kWindowBytes / elem_bytes);
  const Index size = local_bytes / elem_bytes;
  std::vector<SweepCursor> cursors(plans.size());
  for (Index end = window; end - window < size; end += window) {
    if constexpr (Interleavable<Move>) {
      if (plans.size() >= 2) {
        move_interleaved_groups(plans, std::span(cursors), std::span(moves), local, local_bytes, end, elem_bytes);
      }
    }
    for (std::size_t k = 0; k < plans.size(); ++k) {
      // The move in a local: stores through std::byte* may alias anything, vector elements included.
      Move move = moves[k];
      cursors[k] = sweep_until(*plans[k], cursors[k], end, move);
      moves[k] = move;
    }
  }
  // Streaming stores write local storage, or messages gathered from it, only when it holds at least
  // kStreamingBytes (a rank's messages together hold no more than its storage).
  if (local_bytes >= kStreamingBytes) finish_streaming();
}

// Pack side: a message's pieces, gathered from local storage into the message.
struct GatherInto {
  const std::byte* local;
  std::byte* at;
  Index elem_bytes;
  bool streaming = false;  // streaming stores (gathers())
  void operator()(Index start, Index stride, Index length, Index count) {
    at = gather({start, length, count, stride}, local, elem_bytes, at, streaming);
  }
  static constexpr bool kIntoLocal = false;
  bool streams() const { return streaming; }
  std::byte* stream() const { return at; }
  static Index contiguous() { return std::numeric_limits<Index>::max(); }
  void consumed(Index elements) { at += elements * elem_bytes; }
};

// Unpack side: a message's pieces, scattered from the message into local storage.
struct ScatterFrom {
  std::byte* local;
  const std::byte* at;
  Index elem_bytes;
  void operator()(Index start, Index stride, Index length, Index count) {
    at = scatter({start, length, count, stride}, at, elem_bytes, local);
  }
  static constexpr bool kIntoLocal = true;
  const std::byte* stream() const { return at; }
  static Index contiguous() { return std::numeric_limits<Index>::max(); }
  void consumed(Index elements) { at += elements * elem_bytes; }
};

// Pack side sweeps the source: the local part's pieces there go straight to their places in
// destination storage, the next ones along `to`.
struct CopyToDestination {
  const std::byte* source;
  std::byte* dest;
  PieceCursor to;
  Index elem_bytes;
  void operator()(Index start, Index stride, Index length, Index count) {
    const Run swept{start, length, count, stride};
    if (!to.done() && to.left() >= length * count) {  // all into one piece of the destination: a gather
      gather(swept, source, elem_bytes, dest + to.start() * elem_bytes);
      to.advance(length * count);
      return;
    }
    PieceCursor from({&swept, 1});
    copy_paired(from, to, source, dest, elem_bytes);
  }
  static constexpr bool kIntoLocal = false;
  // Contiguous to the end of the destination's current piece.
  std::byte* stream() const { return dest + to.start() * elem_bytes; }
  Index contiguous() const { return to.done() ? 0 : to.left(); }
  void consumed(Index elements) { to.advance(elements); }
};

// Unpack side sweeps the destination: the local part's pieces there come straight from their
// places in source storage, the next ones along `from`.
struct CopyFromSource {
  std::byte* dest;
  const std::byte* source;
  PieceCursor from;
  Index elem_bytes;
  void operator()(Index start, Index stride, Index length, Index count) {
    const Run swept{start, length, count, stride};
    if (!from.done() && from.left() >= length * count) {  // all from one piece of the source: a scatter
      scatter(swept, source + from.start() * elem_bytes, elem_bytes, dest);
      from.advance(length * count);
      return;
    }
    PieceCursor to({&swept, 1});
    copy_paired(from, to, source, dest, elem_bytes);
  }
  static constexpr bool kIntoLocal = true;
  // Contiguous to the end of the source's current piece.
  const std::byte* stream() const { return source + from.start() * elem_bytes; }
  Index contiguous() const { return from.done() ? 0 : from.left(); }
  void consumed(Index elements) { from.advance(elements); }
};

// A message's move or the local part's copy, whichever this plan of a sweep is: the local part
// swept with the messages joins their interleaved lines (1x4 3x5 -> 4x1 5x3: on the pack side
// each line holds a piece of every rank).
template <typename Message, typename Copy>
struct MessageOrCopy {
  bool copied;
  Message message;
  Copy copy;
  void operator()(Index start, Index stride, Index length, Index count) {
    if (copied) {
      copy(start, stride, length, count);
    } else {
      message(start, stride, length, count);
    }
  }
  static constexpr bool kIntoLocal = Message::kIntoLocal;
  // Pack side: a line holding the local part's pieces is moved with plain stores (its group streams
  // only when every member does). Streamed, 1x4 3x5 -> 4x1 5x3 packed slower than before the local
  // part joined the lines (11-14 against 9-12.7 ms, 4 ranks); plain, rank 0's pack and unpack
  // sweeps took 7.6 ms against 8.7 (one process, fastest of 15).
  bool streams() const { return !copied && message.streams(); }
  auto stream() const { return copied ? copy.stream() : message.stream(); }
  Index contiguous() const { return copied ? copy.contiguous() : message.contiguous(); }
  void consumed(Index elements) {
    if (copied) {
      copy.consumed(elements);
    } else {
      message.consumed(elements);
    }
  }
};
using OutOfSource = MessageOrCopy<GatherInto, CopyToDestination>;
using IntoDestination = MessageOrCopy<ScatterFrom, CopyFromSource>;

// A gather per message. Streaming stores when the messages together are larger than the caches
// (each is written once, in order, and read by another process) and the message's pieces average
// 256 bytes or less (2x2 1x1 -> 2x2 64x64, 256-byte pieces: 13.0 -> 11.5 ms); longer ones go as
// fast or faster by the library's wider moves (512 bytes and up: equal or up to 20% slower, 4
// ranks). One way for a whole message, its interleaved groups included: a cache line written
// partly each way costs more than either (2x2 32x32 -> 2x2 48x48, pieces of 128 and 256 bytes
// chosen piece by piece: 21 -> 34-43 ms).
std::vector<GatherInto> gathers(std::span<const PeerPlan* const> sends, std::span<const std::byte> local,
                                Index elem_bytes, std::span<std::byte* const> buffers) {
  constexpr Index kLongestStreamedPiece = 256;
  Index bytes = 0;
  for (const PeerPlan* plan : sends) bytes += plan->elements * elem_bytes;
  std::vector<GatherInto> moves;
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const PeerPlan& plan = *sends[k];
    const bool short_pieces = plan.elements * elem_bytes <= kLongestStreamedPiece * std::max<Index>(plan.run_count, 1);
    moves.push_back({local.data(), buffers[k], elem_bytes, bytes >= kStreamingBytes && short_pieces});
  }
  return moves;
}

std::vector<const PeerPlan*> addresses(std::span<const PeerPlan> plans) {
  std::vector<const PeerPlan*> out;
  for (const PeerPlan& plan : plans) out.push_back(&plan);
  return out;
}

}  // namespace

void pack(const PeerPlan& plan, std::span<const std::byte> local, Index elem_bytes, std::byte* buffer) {
  for (const Run& run : plan.runs) buffer = gather(run, local.data(), elem_bytes, buffer);
}

void pack_messages(std::span<const PeerPlan> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers) {
  pack_messages(addresses(sends), local, elem_bytes, buffers);
}

void pack_messages(std::span<const PeerPlan* const> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers) {
  std::vector<GatherInto> moves = gathers(sends, local, elem_bytes, buffers);
  sweep_windows(sends, moves, elem_bytes, local.data(), static_cast<Index>(local.size()));
}

void pack_messages(std::span<const PeerPlan* const> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers, const PeerPlan& local_send, const PeerPlan& local_receive,
                   std::span<std::byte> dest_local) {
  check_local_part(local_send, local_receive);
  std::vector<const PeerPlan*> plans(sends.begin(), sends.end());
  plans.push_back(&local_send);
  std::vector<OutOfSource> moves;
  const CopyToDestination no_copy{nullptr, nullptr, PieceCursor({}), elem_bytes};
  for (const GatherInto& gather : gathers(sends, local, elem_bytes, buffers)) moves.push_back({false, gather, no_copy});
  moves.push_back({true, {nullptr, nullptr, elem_bytes}, {local.data(), dest_local.data(), PieceCursor(local_receive.runs), elem_bytes}});
  sweep_windows(std::span<const PeerPlan* const>(plans), moves, elem_bytes, local.data(), static_cast<Index>(local.size()));
}

void unpack_messages(std::span<const PeerPlan> recvs, std::span<const std::byte* const> buffers, Index elem_bytes,
                     std::span<std::byte> local) {
  unpack_messages(addresses(recvs), buffers, elem_bytes, local);
}

void unpack_messages(std::span<const PeerPlan* const> recvs, std::span<const std::byte* const> buffers,
                     Index elem_bytes, std::span<std::byte> local) {
  if (recvs.size() == 1) return unpack(*recvs[0], buffers[0], elem_bytes, local);
  std::vector<ScatterFrom> moves;
  for (const std::byte* buffer : buffers) moves.push_back({local.data(), buffer, elem_bytes});
  sweep_windows(recvs, moves, elem_bytes, local.data(), static_cast<Index>(local.size()));
}

void unpack(const PeerPlan& plan, const std::byte* buffer, Index elem_bytes, std::span<std::byte> local) {
  // One message's runs are scattered over local storage: fetch the lines a few runs ahead.
  constexpr std::size_t kAhead = 16;
  const auto& runs = plan.runs;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i + kAhead < runs.size()) __builtin_prefetch(local.data() + runs[i + kAhead].local_start * elem_bytes, 1);
    buffer = scatter(runs[i], buffer, elem_bytes, local.data());
  }
}

void unpack_and_copy(std::span<const PeerPlan* const> recvs, std::span<const std::byte* const> buffers,
                     std::span<const DirectCopy> copies, Index elem_bytes, std::span<std::byte> local) {
  if (copies.empty()) return unpack_messages(recvs, buffers, elem_bytes, local);
  std::vector<const PeerPlan*> plans(recvs.begin(), recvs.end());
  std::vector<IntoDestination> moves;
  const CopyFromSource no_copy{nullptr, nullptr, PieceCursor({}), elem_bytes};
  for (const std::byte* buffer : buffers) moves.push_back({false, {local.data(), buffer, elem_bytes}, no_copy});
  for (const DirectCopy& c : copies) {
    plans.push_back(c.receive);
    moves.push_back({true, {nullptr, nullptr, elem_bytes}, {local.data(), c.source, PieceCursor(c.source_runs), elem_bytes}});
  }
  sweep_windows(std::span<const PeerPlan* const>(plans), moves, elem_bytes, local.data(), static_cast<Index>(local.size()));
}

}  // namespace redist
