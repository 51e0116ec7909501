// Multi-dimensional layouts: the tensor product of one 1-D CYCLIC(b) mapping per array dimension
// over a processor grid, with `*` (not distributed) dimensions, stored row- or column-major.
//
// Processors are numbered row-major over the grid (BLACS' default 'Row' order): with grid shape
// (G0, G1), processor (g0, g1) is rank g0·G1 + g1. A `*` dimension contributes a grid extent of 1.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "redist/layout/block_cyclic.hpp"

namespace redist {

enum class StorageOrder { RowMajor, ColumnMajor };

/// How one array dimension is mapped: CYCLIC(b) over a grid dimension, or `*`.
class DimMapping {
 public:
  static DimMapping distributed(const BlockCyclic& layout) { return DimMapping(layout, true); }
  /// `*`: the whole extent stays on every processor row of this dimension.
  static DimMapping collapsed(Index extent) { return DimMapping(BlockCyclic(extent, extent, 1), false); }

  bool is_distributed() const { return distributed_; }
  /// For a `*` dimension: CYCLIC(extent) on one processor, which maps i to local index i.
  const BlockCyclic& layout() const { return layout_; }

 private:
  DimMapping(const BlockCyclic& layout, bool distributed) : layout_(layout), distributed_(distributed) {}
  BlockCyclic layout_;
  bool distributed_;
};

class MultiDimLayout {
 public:
  /// Throws std::invalid_argument for no dimensions, or a processor count that overflows.
  explicit MultiDimLayout(std::vector<DimMapping> dims, StorageOrder storage = StorageOrder::RowMajor);

  std::size_t rank() const { return dims_.size(); }
  const DimMapping& dim(std::size_t d) const { return dims_[d]; }
  StorageOrder storage() const { return storage_; }
  /// Global array extents.
  std::vector<Index> shape() const;
  /// Processor-grid extents (1 for `*` dimensions).
  std::vector<Index> grid_shape() const;
  /// Number of processors of the grid.
  Index processors() const { return processors_; }
  /// Total number of array elements.
  Index size() const { return size_; }

  /// Grid coordinates of a processor rank, and back.
  std::vector<Index> grid_coords(Index proc) const;
  Index proc_of_grid_coords(std::span<const Index> grid) const;

  /// Processor holding the element at global coordinates `coords`.
  Index owner(std::span<const Index> coords) const;
  /// Extents of processor `proc`'s local array.
  std::vector<Index> local_shape(Index proc) const;
  Index local_size(Index proc) const;
  /// Offset of the element at `coords` in its owner's local storage (row- or column-major).
  Index local_offset(std::span<const Index> coords) const;
  /// Global coordinates of the element at `offset` in processor `proc`'s local storage.
  std::vector<Index> global_coords(Index proc, Index offset) const;

  /// Row-major linear index of global coordinates, and back (a convenient element identity).
  Index linear_index(std::span<const Index> coords) const;
  std::vector<Index> coords_of_linear(Index linear) const;

 private:
  std::vector<DimMapping> dims_;
  StorageOrder storage_;
  Index processors_ = 1;
  Index size_ = 1;
};

}  // namespace redist
