#include "redist/layout/multi_dim.hpp"

#include <stdexcept>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

// Linearises `coords` within `extents`, last dimension fastest (row-major) or first fastest.
Index linearise(std::span<const Index> coords, std::span<const Index> extents, StorageOrder order) {
  Index out = 0;
  const std::size_t n = extents.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t d = order == StorageOrder::RowMajor ? k : n - 1 - k;
    out = out * extents[d] + coords[d];
  }
  return out;
}

std::vector<Index> delinearise(Index linear, std::span<const Index> extents, StorageOrder order) {
  const std::size_t n = extents.size();
  std::vector<Index> coords(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t d = order == StorageOrder::RowMajor ? n - 1 - k : k;
    coords[d] = linear % extents[d];
    linear /= extents[d];
  }
  return coords;
}

void require_rank(std::size_t got, std::size_t want) {
  if (got != want) {
    throw std::invalid_argument("expected " + std::to_string(want) + " coordinates, got " +
                                std::to_string(got));
  }
}

}  // namespace

MultiDimLayout::MultiDimLayout(std::vector<DimMapping> dims, StorageOrder storage)
    : dims_(std::move(dims)), storage_(storage) {
  if (dims_.empty()) throw std::invalid_argument("a layout needs at least one dimension");
  for (const auto& d : dims_) {
    processors_ = checked_mul(processors_, d.layout().procs(), "processor grid size");
    size_ = checked_mul(size_, d.layout().size(), "array size");
  }
}

std::vector<Index> MultiDimLayout::shape() const {
  std::vector<Index> out;
  for (const auto& d : dims_) out.push_back(d.layout().size());
  return out;
}

std::vector<Index> MultiDimLayout::grid_shape() const {
  std::vector<Index> out;
  for (const auto& d : dims_) out.push_back(d.layout().procs());
  return out;
}

std::vector<Index> MultiDimLayout::grid_coords(Index proc) const {
  require_in_range(proc, processors_, "processor");
  return delinearise(proc, grid_shape(), StorageOrder::RowMajor);
}

Index MultiDimLayout::proc_of_grid_coords(std::span<const Index> grid) const {
  require_rank(grid.size(), rank());
  return linearise(grid, grid_shape(), StorageOrder::RowMajor);
}

Index MultiDimLayout::owner(std::span<const Index> coords) const {
  require_rank(coords.size(), rank());
  std::vector<Index> grid(rank());
  for (std::size_t d = 0; d < rank(); ++d) grid[d] = dims_[d].layout().owner(coords[d]);
  return proc_of_grid_coords(grid);
}

std::vector<Index> MultiDimLayout::local_shape(Index proc) const {
  const auto grid = grid_coords(proc);
  std::vector<Index> out(rank());
  for (std::size_t d = 0; d < rank(); ++d) out[d] = dims_[d].layout().local_size(grid[d]);
  return out;
}

Index MultiDimLayout::local_size(Index proc) const {
  Index n = 1;
  for (Index e : local_shape(proc)) n *= e;
  return n;
}

Index MultiDimLayout::local_offset(std::span<const Index> coords) const {
  require_rank(coords.size(), rank());
  const Index proc = owner(coords);
  std::vector<Index> local(rank());
  for (std::size_t d = 0; d < rank(); ++d) local[d] = dims_[d].layout().local_index(coords[d]);
  return linearise(local, local_shape(proc), storage_);
}

std::vector<Index> MultiDimLayout::global_coords(Index proc, Index offset) const {
  const auto extents = local_shape(proc);
  const auto grid = grid_coords(proc);
  auto coords = delinearise(offset, extents, storage_);
  for (std::size_t d = 0; d < rank(); ++d) coords[d] = dims_[d].layout().global_index(grid[d], coords[d]);
  return coords;
}

Index MultiDimLayout::linear_index(std::span<const Index> coords) const {
  require_rank(coords.size(), rank());
  return linearise(coords, shape(), StorageOrder::RowMajor);
}

std::vector<Index> MultiDimLayout::coords_of_linear(Index linear) const {
  return delinearise(linear, shape(), StorageOrder::RowMajor);
}

}  // namespace redist
