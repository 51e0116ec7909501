#include "redist/layout/two_level.hpp"

namespace redist {
namespace {

// The layout's set-up is not a modelled phase: its table work is not charged anywhere.
CompressedIndex build_index(const TwoLevelMapping& mapping) {
  Work uncharged;
  return CompressedIndex(mapping, uncharged);
}

}  // namespace

TwoLevelLayout::TwoLevelLayout(Index size, Index stride, Index offset, Index block, Index procs)
    : index_(build_index({size, stride, offset, block, procs})) {}

}  // namespace redist
