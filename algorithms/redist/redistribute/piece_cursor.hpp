// A position in a run list, piece by piece (a strided run is `count` pieces), a piece possibly in
// parts: what pairs two run lists element for element (the local copy) without expanding them.
#pragma once

#include <cstddef>
#include <span>

#include "redist/indexing/rank_plan.hpp"

namespace redist {

class PieceCursor {
 public:
  explicit PieceCursor(std::span<const Run> runs) : runs_(runs) { skip_empty(); }
  bool done() const { return run_ == runs_.size(); }
  /// Local offset (elements) and elements left of the current piece.
  Index start() const { return run().local_start + piece_ * run().stride + used_; }
  Index left() const { return run().length - used_; }
  /// Whole pieces of the current run from here, and their length and stride (0 when mid-piece).
  Index whole_pieces() const { return used_ == 0 ? run().count - piece_ : 0; }
  Index piece_length() const { return run().length; }
  /// Pieces of the current run after the current one.
  Index pieces_after() const { return run().count - piece_ - 1; }
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
  std::span<const Run> runs_;
  std::size_t run_ = 0;
  Index piece_ = 0;
  Index used_ = 0;
};

}  // namespace redist
