#include "redist/layout/block_cyclic.hpp"

#include "redist/core/checks.hpp"

namespace redist {

BlockCyclic::BlockCyclic(Index size, Index block, Index procs, Index first)
    : size_(size), block_(block), procs_(procs), first_(first) {
  require_positive(size, "array size");
  require_positive(block, "block size");
  require_positive(procs, "processor count");
  require_in_range(first, procs, "first processor");
  checked_mul(block, procs, "block size x processor count");
}

BlockCyclic BlockCyclic::block(Index size, Index procs) {
  require_positive(size, "array size");
  require_positive(procs, "processor count");
  return BlockCyclic(size, ceil_div(size, procs), procs);
}

BlockCyclic BlockCyclic::cyclic(Index size, Index procs) { return BlockCyclic(size, 1, procs); }

Index BlockCyclic::global_index(Index p, Index local) const {
  const Index distance = floor_mod(p - first_, procs_);  // p's rank among block owners
  const Index global_block = (local / block_) * procs_ + distance;
  return global_block * block_ + local % block_;
}

Index BlockCyclic::local_size(Index p) const {
  // Whole blocks are dealt round-robin from `first_`; the last, partial block goes to the
  // processor right after the ones that received an extra whole block.
  const Index distance = floor_mod(p - first_, procs_);
  const Index whole_blocks = size_ / block_;
  Index local = (whole_blocks / procs_) * block_;
  const Index extra_blocks = whole_blocks % procs_;
  if (distance < extra_blocks) {
    local += block_;
  } else if (distance == extra_blocks) {
    local += size_ % block_;
  }
  return local;
}

}  // namespace redist
