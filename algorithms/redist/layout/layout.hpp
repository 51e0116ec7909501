// Layout: any distribution redist can redistribute from or to — 1-D block-cyclic, a
// multi-dimensional tensor product, or a two-level (aligned) mapping — seen as a map of the global
// index space [0, size) onto processors and local offsets. Multi-dimensional arrays are indexed by
// their row-major linear index.
#pragma once

#include <variant>

#include "redist/layout/block_cyclic.hpp"
#include "redist/layout/multi_dim.hpp"
#include "redist/layout/two_level.hpp"

namespace redist {

class Layout {
 public:
  using Variant = std::variant<BlockCyclic, MultiDimLayout, TwoLevelLayout>;

  Layout(BlockCyclic layout) : layout_(std::move(layout)) {}        // NOLINT: implicit by design
  Layout(MultiDimLayout layout) : layout_(std::move(layout)) {}     // NOLINT
  Layout(TwoLevelLayout layout) : layout_(std::move(layout)) {}     // NOLINT

  const Variant& variant() const { return layout_; }

  /// Number of elements of the global array.
  Index size() const;
  /// Number of processors the layout spreads over.
  Index processors() const;
  /// Processor holding global index g.
  Index owner(Index g) const;
  /// Offset of global index g in its owner's local storage.
  Index local_offset(Index g) const;
  /// Global index at local offset `local` of processor p.
  Index global_index(Index p, Index local) const;
  Index local_size(Index p) const;

  /// Same kind and same parameters: the two map every element identically.
  friend bool operator==(const Layout& a, const Layout& b);

 private:
  Variant layout_;
};

}  // namespace redist
