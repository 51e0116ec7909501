#include "redist/redistribute/local_copy.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/redistribute/copy_run.hpp"
#include "redist/redistribute/piece_cursor.hpp"

namespace redist {
namespace {

// Regular pieces of `strided` from (or into) one long piece of `flat`: how many whole pieces of
// `strided` fit in what is left of `flat`'s piece (0 or 1: nothing to gain over a plain copy).
inline Index pieces_against_flat(const PieceCursor& strided, const PieceCursor& flat) {
  if (strided.whole_pieces() < 2 || flat.left() < 2 * strided.piece_length()) return 0;  // no division then
  return std::min(strided.whole_pieces(), flat.left() / strided.piece_length());
}

// Regular pieces on both sides, each piece of `whole` holding `k` >= 2 pieces of `split`: how many
// pieces of `whole` can go in one grouped copy (at least 2 of them; 0 when the runs do not pair so).
inline Index groups_against_split(const PieceCursor& whole, const PieceCursor& split) {
  if (whole.whole_pieces() < 2 || split.whole_pieces() < 2) return 0;
  const Index length = split.piece_length();
  if (whole.piece_length() % length != 0 || whole.piece_length() / length < 2) return 0;
  const Index groups = std::min(whole.whole_pieces(), split.whole_pieces() / (whole.piece_length() / length));
  return groups >= 2 ? groups : 0;
}

// Pieces of one length on both sides, `whole` at a piece's start and `split` inside one: each piece
// of `whole` fills the rest of `split`'s current piece and the start of its next (a CYCLIC(r) to
// CYCLIC(s) local part whose pieces are offset). How many pieces of `whole` go so in one shifted
// copy (at least 2; 0 when the runs do not pair so).
inline Index shifted_pieces(const PieceCursor& whole, const PieceCursor& split) {
  if (whole.whole_pieces() < 2 || split.whole_pieces() != 0 || whole.piece_length() != split.piece_length()) return 0;
  const Index m = std::min(whole.whole_pieces(), split.pieces_after());
  return m >= 2 ? m : 0;
}

// Where a shifted copy's parts begin (elements): the first, from the start of `whole`'s piece to
// the rest of `split`'s current one (`head` elements), and the second, from the rest of `whole`'s
// piece to the start of `split`'s next one (`length - head`).
struct ShiftedParts {
  Index whole_first, whole_second, split_first, split_second, head, length;
};

ShiftedParts shifted_parts(const PieceCursor& whole, const PieceCursor& split) {
  const Index length = whole.piece_length(), head = split.left();
  return {whole.start(), whole.start() + head, split.start(), split.start() + head - length + split.stride(), head, length};
}

// Both cursors past `m` shifted pieces: `whole` at the start of a piece again, `split` as far
// inside one as before.
void advance_shifted(PieceCursor& whole, PieceCursor& split, Index m, const ShiftedParts& parts) {
  whole.advance_pieces(m);
  split.advance(parts.head);
  split.advance_pieces(m - 1);
  split.advance(parts.length - parts.head);
}

// `count` pieces cut in two at the same place: the first `first` bytes of piece c from `from_first +
// c * from_step` to `to_first + c * to_step`, the other `second` likewise from `from_second` to
// `to_second`; both parts of a chunk of pieces before the next, so that each line is visited while
// it is in cache. A plain copy per part costs a cursor step each (6.5 ns an element for pieces of
// one or two elements).
void copy_cut_pieces(std::byte* to_first, std::byte* to_second, Index to_step, const std::byte* from_first,
                     const std::byte* from_second, Index from_step, Index count, std::size_t first, std::size_t second) {
  constexpr Index kChunk = 256;
  for (Index done = 0; done < count; done += kChunk) {
    const Index n = std::min(kChunk, count - done);
    copy_pieces(to_first + done * to_step, to_step, from_first + done * from_step, from_step, n, first);
    copy_pieces(to_second + done * to_step, to_step, from_second + done * from_step, from_step, n, second);
  }
}

// `m` shifted pieces (shifted_pieces(whole, split)) copied and both cursors moved past them; `whole`
// is the source's cursor when `whole_is_source`, the destination's otherwise.
void copy_shifted(PieceCursor& whole, PieceCursor& split, bool whole_is_source, Index m, const std::byte* source,
                  std::byte* dest, Index elem_bytes) {
  const ShiftedParts p = shifted_parts(whole, split);
  const PieceCursor& from = whole_is_source ? whole : split;
  const PieceCursor& to = whole_is_source ? split : whole;
  const Index from_first = whole_is_source ? p.whole_first : p.split_first;
  const Index from_second = whole_is_source ? p.whole_second : p.split_second;
  const Index to_first = whole_is_source ? p.split_first : p.whole_first;
  const Index to_second = whole_is_source ? p.split_second : p.whole_second;
  copy_cut_pieces(dest + to_first * elem_bytes, dest + to_second * elem_bytes, to.stride() * elem_bytes,
                  source + from_first * elem_bytes, source + from_second * elem_bytes, from.stride() * elem_bytes, m,
                  static_cast<std::size_t>(p.head * elem_bytes), static_cast<std::size_t>((p.length - p.head) * elem_bytes));
  advance_shifted(whole, split, m, p);
}

}  // namespace

LocalPart local_part(const RankPlan& plan, Rank me) {
  const auto send = peer_index(plan.sends, me), receive = peer_index(plan.receives, me);
  if (!send || !receive) return {};
  return {&plan.sends[*send], &plan.receives[*receive]};
}

void check_local_part(const PeerPlan& send, const PeerPlan& receive) {
  if (send.elements != receive.elements) {
    throw std::invalid_argument("local copy: " + std::to_string(send.elements) + " elements sent, " +
                                std::to_string(receive.elements) + " received");
  }
}

void copy_paired(PieceCursor& from, PieceCursor& to, const std::byte* source, std::byte* dest, Index elem_bytes) {
  while (!from.done() && !to.done()) {
    if (from.whole_pieces() < 2 && to.whole_pieces() < 2) {
      // A single piece, or the rest of one, on both sides (run lists of unlike pieces, CYCLIC(2)
      // -> CYCLIC(3)): nothing to pair in a loop, so no pairing is looked for.
      const Index n = std::min(from.left(), to.left());
      copy_run(dest + to.start() * elem_bytes, source + from.start() * elem_bytes, static_cast<std::size_t>(n * elem_bytes));
      from.advance(n);
      to.advance(n);
      continue;
    }
    // Regular pieces on both sides, or a strided run meeting a long piece: one tight loop.
    if (const Index both = std::min(from.whole_pieces(), to.whole_pieces());
        both >= 2 && from.piece_length() == to.piece_length()) {
      const Index bytes = to.piece_length() * elem_bytes;
      copy_pieces(dest + to.start() * elem_bytes, to.stride() * elem_bytes, source + from.start() * elem_bytes,
                  from.stride() * elem_bytes, both, static_cast<std::size_t>(bytes));
      from.advance_pieces(both);
      to.advance_pieces(both);
    } else if (const Index g = groups_against_split(from, to); g > 0) {  // a source piece fills k destination pieces
      const Index k = from.piece_length() / to.piece_length();
      copy_piece_groups(dest + to.start() * elem_bytes, to.stride() * elem_bytes, k * to.stride() * elem_bytes,
                        source + from.start() * elem_bytes, to.piece_length() * elem_bytes, from.stride() * elem_bytes, k,
                        g, static_cast<std::size_t>(to.piece_length() * elem_bytes));
      from.advance_pieces(g);
      to.advance_pieces(g * k);
    } else if (const Index h = groups_against_split(to, from); h > 0) {  // k source pieces fill a destination piece
      const Index k = to.piece_length() / from.piece_length();
      copy_piece_groups(dest + to.start() * elem_bytes, from.piece_length() * elem_bytes, to.stride() * elem_bytes,
                        source + from.start() * elem_bytes, from.stride() * elem_bytes, k * from.stride() * elem_bytes, k,
                        h, static_cast<std::size_t>(from.piece_length() * elem_bytes));
      to.advance_pieces(h);
      from.advance_pieces(h * k);
    } else if (const Index m = pieces_against_flat(to, from); m > 0) {
      const Index bytes = to.piece_length() * elem_bytes;
      copy_pieces(dest + to.start() * elem_bytes, to.stride() * elem_bytes, source + from.start() * elem_bytes, bytes, m,
                  static_cast<std::size_t>(bytes));
      from.advance(m * to.piece_length());
      to.advance_pieces(m);
    } else if (const Index k = pieces_against_flat(from, to); k > 0) {
      const Index bytes = from.piece_length() * elem_bytes;
      copy_pieces(dest + to.start() * elem_bytes, bytes, source + from.start() * elem_bytes, from.stride() * elem_bytes, k,
                  static_cast<std::size_t>(bytes));
      to.advance(k * from.piece_length());
      from.advance_pieces(k);
    } else if (const Index s = shifted_pieces(from, to); s > 0) {  // a source piece ends in the next destination piece
      copy_shifted(from, to, true, s, source, dest, elem_bytes);
    } else if (const Index t = shifted_pieces(to, from); t > 0) {  // a destination piece starts in one source piece
      copy_shifted(to, from, false, t, source, dest, elem_bytes);
    } else {
      const Index n = std::min(from.left(), to.left());
      copy_run(dest + to.start() * elem_bytes, source + from.start() * elem_bytes, static_cast<std::size_t>(n * elem_bytes));
      from.advance(n);
      to.advance(n);
    }
  }
}

void copy_local(const RankPlan& plan, Rank me, std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                Index elem_bytes) {
  const LocalPart part = local_part(plan, me);
  if (!part.empty()) copy_local(*part.send, *part.receive, source_local, dest_local, elem_bytes);
}

void copy_local(const PeerPlan& send, const PeerPlan& receive, std::span<const std::byte> source_local,
                std::span<std::byte> dest_local, Index elem_bytes) {
  check_local_part(send, receive);
  PieceCursor from(send.runs), to(receive.runs);
  copy_paired(from, to, source_local.data(), dest_local.data(), elem_bytes);
}

}  // namespace redist
