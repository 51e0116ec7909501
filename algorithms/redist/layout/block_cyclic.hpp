// One-dimensional CYCLIC(b) distribution of N elements over P processors (HPF / ScaLAPACK).
//
// Global index i lives on processor ((i / b) + first) mod P at local index (i / (b·P))·b + i mod b,
// where `first` is the processor holding block 0 (ScaLAPACK's RSRC; 0 in the papers).
// BLOCK is CYCLIC(ceil(N/P)) and CYCLIC is CYCLIC(1).
#pragma once

#include "redist/core/int_math.hpp"

namespace redist {

class BlockCyclic {
 public:
  /// CYCLIC(block) of `size` elements over `procs` processors, block 0 on processor `first`.
  /// Throws std::invalid_argument for a non-positive size, block or processor count.
  BlockCyclic(Index size, Index block, Index procs, Index first = 0);

  /// HPF BLOCK: CYCLIC(ceil(size / procs)).
  static BlockCyclic block(Index size, Index procs);
  /// HPF CYCLIC: CYCLIC(1).
  static BlockCyclic cyclic(Index size, Index procs);

  Index size() const { return size_; }
  Index block_size() const { return block_; }
  Index procs() const { return procs_; }
  Index first_proc() const { return first_; }
  /// b·P: the owner pattern repeats with this period.
  Index period() const { return block_ * procs_; }

  /// Processor holding global index i.
  Index owner(Index i) const { return floor_mod(i / block_ + first_, procs_); }
  /// Position of global index i in its owner's local array.
  Index local_index(Index i) const { return (i / period()) * block_ + i % block_; }
  /// Global index stored at `local` on processor p (inverse of owner/local_index).
  Index global_index(Index p, Index local) const;
  /// Number of elements processor p holds (any N, not only multiples of the period).
  Index local_size(Index p) const;

  friend bool operator==(const BlockCyclic&, const BlockCyclic&) = default;

 private:
  Index size_;
  Index block_;
  Index procs_;
  Index first_;
};

}  // namespace redist
