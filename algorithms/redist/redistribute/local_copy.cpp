#include "redist/redistribute/local_copy.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/redistribute/copy_run.hpp"

namespace redist {
namespace {

// Walks a run list piece by piece (a strided run is `count` pieces), a piece possibly in parts.
class PieceCursor {
 public:
  explicit PieceCursor(const std::vector<Run>& runs) : runs_(runs) { skip_empty(); }
  bool done() const { return run_ == runs_.size(); }
  /// Local offset (elements) and elements left of the current piece.
  Index start() const { return run().local_start + piece_ * run().stride + used_; }
  Index left() const { return run().length - used_; }
  /// Whole pieces of the current run from here, and their length and stride (0 when mid-piece).
  Index whole_pieces() const { return used_ == 0 ? run().count - piece_ : 0; }
  Index piece_length() const { return run().length; }
  Index stride() const { return run().stride; }

  void advance(Index n) {
    used_ += n;
    if (used_ == run().length) {
      used_ = 0;
      next_pieces(1);
    }
  }
  void advance_pieces(Index m) { next_pieces(m); }

 private:
  const Run& run() const { return runs_[run_]; }
  void next_pieces(Index m) {
    piece_ += m;
    if (piece_ < run().count) return;
    piece_ = 0;
    ++run_;
    skip_empty();
  }
  void skip_empty() {
    while (run_ < runs_.size() && (runs_[run_].length == 0 || runs_[run_].count == 0)) ++run_;
  }
  const std::vector<Run>& runs_;
  std::size_t run_ = 0;
  Index piece_ = 0;
  Index used_ = 0;
};

// Regular pieces of `strided` from (or into) one long piece of `flat`: how many whole pieces of
// `strided` fit in what is left of `flat`'s piece (0 or 1: nothing to gain over a plain copy).
Index pieces_against_flat(const PieceCursor& strided, const PieceCursor& flat) {
  const Index m = std::min(strided.whole_pieces(), flat.left() / strided.piece_length());
  return m >= 2 ? m : 0;
}

const PeerPlan* find_peer(const std::vector<PeerPlan>& peers, Rank rank) {
  for (const PeerPlan& p : peers) {
    if (p.peer == rank) return &p;
  }
  return nullptr;
}

}  // namespace

void copy_local(const RankPlan& plan, Rank me, std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                Index elem_bytes) {
  const PeerPlan* send = find_peer(plan.sends, me);
  const PeerPlan* receive = find_peer(plan.receives, me);
  if (send != nullptr && receive != nullptr) copy_local(*send, *receive, source_local, dest_local, elem_bytes);
}

void copy_local(const PeerPlan& send, const PeerPlan& receive, std::span<const std::byte> source_local,
                std::span<std::byte> dest_local, Index elem_bytes) {
  if (send.elements != receive.elements) {
    throw std::invalid_argument("copy_local: " + std::to_string(send.elements) + " elements sent, " +
                                std::to_string(receive.elements) + " received");
  }
  const std::byte* const source = source_local.data();
  std::byte* const dest = dest_local.data();
  PieceCursor from(send.runs), to(receive.runs);
  while (!from.done() && !to.done()) {
    // Regular pieces on both sides, or a strided run meeting a long piece: one tight loop.
    if (const Index both = std::min(from.whole_pieces(), to.whole_pieces());
        both >= 2 && from.piece_length() == to.piece_length()) {
      const Index bytes = to.piece_length() * elem_bytes;
      copy_pieces(dest + to.start() * elem_bytes, to.stride() * elem_bytes, source + from.start() * elem_bytes,
                  from.stride() * elem_bytes, both, static_cast<std::size_t>(bytes));
      from.advance_pieces(both);
      to.advance_pieces(both);
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
    } else {
      const Index n = std::min(from.left(), to.left());
      copy_run(dest + to.start() * elem_bytes, source + from.start() * elem_bytes, static_cast<std::size_t>(n * elem_bytes));
      from.advance(n);
      to.advance(n);
    }
  }
}

}  // namespace redist
