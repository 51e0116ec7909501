// The part of a redistribution that stays on one rank, copied once: straight from source storage to
// destination storage, without the pack into a message buffer and the unpack out of it.
#pragma once

#include <cstddef>
#include <span>

#include "redist/indexing/rank_plan.hpp"
#include "redist/redistribute/interleaved_pieces.hpp"
#include "redist/redistribute/piece_cursor.hpp"

namespace redist {

/// Copies the elements `send` (this rank's message to itself, runs of `source_local`) to where
/// `receive` (its message from itself, runs of `dest_local`) puts them. Same result as pack(send)
/// followed by unpack(receive), with one copy per byte. Throws std::invalid_argument when the two
/// plans hold different numbers of elements.
void copy_local(const PeerPlan& send, const PeerPlan& receive, std::span<const std::byte> source_local,
                std::span<std::byte> dest_local, Index elem_bytes);

/// A rank's message to itself: its plan in source storage and in destination storage (both null
/// when nothing stays on the rank).
struct LocalPart {
  const PeerPlan* send = nullptr;
  const PeerPlan* receive = nullptr;
  bool empty() const { return send == nullptr || receive == nullptr; }
};
LocalPart local_part(const RankPlan& plan, Rank me);

/// Throws std::invalid_argument unless the local part's two plans hold as many elements.
void check_local_part(const PeerPlan& send, const PeerPlan& receive);

/// Whether a sweep that copies the local part on the way should sweep the destination (the
/// unpack) rather than the source (the pack): the side whose storage the part cuts into more
/// pieces, so that those scattered pieces are visited in storage order with every other message's.
/// But not the destination when its pieces are shorter than a cache line and the source's hold too
/// few of them to move kFewestInterleavedLines lines at once: there the part's pieces sit in the
/// lines the messages' pieces fill together, and it would have them moved piece by piece (2x2 2x2
/// -> 4x1 8x8, rank 0 of 4, one process: the part adds 3.8-3.9 ms to the unpacking, 1.3 to the
/// packing; CYCLIC(8)/4 -> CYCLIC(3)/4: 4.6-5.6 against 2.6-4.5).
inline bool local_part_in_unpack(const PeerPlan& send, const PeerPlan& receive, Index elem_bytes) {
  constexpr Index kLineBytes = 64;
  if (receive.run_count < send.run_count) return false;
  const auto piece = [](const PeerPlan& plan) {  // elements, on average
    return static_cast<double>(plan.elements) / static_cast<double>(plan.run_count);
  };
  const bool short_destination_pieces = piece(receive) * static_cast<double>(elem_bytes) < kLineBytes;
  return !short_destination_pieces || piece(send) > static_cast<double>(kFewestInterleavedLines) * piece(receive);
}

/// The work of copying the local part once (copy_local or a sweep that takes it along): its bytes
/// once, a copy started per piece of the finer side (the other side's piece ends mostly fall on
/// them), and every record of both run lists read.
inline Work local_copy_work(const PeerPlan& send, const PeerPlan& receive, Index elem_bytes) {
  const PeerPlan& finer = receive.run_count >= send.run_count ? receive : send;
  Work work;
  work.add(WorkKind::ByteCopied, send.elements * elem_bytes)
      .add(WorkKind::RunCopied, finer.run_count + finer.extra_copies)
      .add(WorkKind::RecordCopied, send.record_count + receive.record_count);
  return work;
}

/// Copies elements from `from`'s pieces of `source` to `to`'s pieces of `dest`, in order, until
/// either cursor is done; both advance past what was copied. Regular pieces on both sides, or a
/// strided run meeting a long piece, go in one tight loop.
void copy_paired(PieceCursor& from, PieceCursor& to, const std::byte* source, std::byte* dest, Index elem_bytes);

/// The part of `plan` that stays on rank `me` (its message to itself), if any, copied as above.
void copy_local(const RankPlan& plan, Rank me, std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                Index elem_bytes);

}  // namespace redist
