#include "redist/pack/geometry.hpp"

#include <stdexcept>
#include <string>

#include "redist/core/checks.hpp"

namespace redist::pack {

Geometry::Geometry(std::vector<Index> extents, std::vector<Index> procs, std::vector<Index> blocks)
    : extents_(std::move(extents)), procs_(std::move(procs)), blocks_(std::move(blocks)) {
  if (extents_.empty()) throw std::invalid_argument("the array needs at least one dimension");
  if (procs_.size() != extents_.size() || blocks_.size() != extents_.size()) {
    throw std::invalid_argument("shape, grid and block sizes must have the same number of dimensions (" +
                                std::to_string(extents_.size()) + ", " + std::to_string(procs_.size()) + ", " +
                                std::to_string(blocks_.size()) + ")");
  }
  for (std::size_t i = 0; i < extents_.size(); ++i) {
    const std::string dim = " of dimension " + std::to_string(i);
    require_positive(extents_[i], ("extent" + dim).c_str());
    require_positive(procs_[i], ("processor count" + dim).c_str());
    require_positive(blocks_[i], ("block size" + dim).c_str());
    const Index tile = checked_mul(procs_[i], blocks_[i], "P_i x W_i");
    if (extents_[i] % tile != 0) {
      throw std::invalid_argument("P_i x W_i = " + std::to_string(tile) + " must divide N_i = " +
                                  std::to_string(extents_[i]) + dim + " (paper 001, section 3)");
    }
    processors_ = checked_mul(processors_, procs_[i], "processor count");
    size_ = checked_mul(size_, extents_[i], "array size");
  }
}

Index Geometry::outer(std::size_t i) const {
  Index rows = 1;
  for (std::size_t k = i + 1; k < rank(); ++k) rows *= local_extent(k);
  return rows;
}

Geometry Geometry::as_block() const {
  std::vector<Index> blocks(rank());
  for (std::size_t i = 0; i < rank(); ++i) blocks[i] = local_extent(i);
  return Geometry(extents_, procs_, blocks);
}

std::vector<Index> Geometry::grid_coords(Index proc) const {
  std::vector<Index> grid(rank());
  for (std::size_t i = 0; i < rank(); ++i) {
    grid[i] = proc % procs_[i];
    proc /= procs_[i];
  }
  return grid;
}

Index Geometry::proc_of_grid_coords(std::span<const Index> grid) const {
  Index proc = 0;
  for (std::size_t i = rank(); i-- > 0;) proc = proc * procs_[i] + grid[i];
  return proc;
}

std::vector<Index> Geometry::line(Index proc, std::size_t i) const {
  auto grid = grid_coords(proc);
  std::vector<Index> members(static_cast<std::size_t>(procs_[i]));
  for (Index g = 0; g < procs_[i]; ++g) {
    grid[i] = g;
    members[static_cast<std::size_t>(g)] = proc_of_grid_coords(grid);
  }
  return members;
}

std::vector<Index> Geometry::global_coords(Index proc, Index offset) const {
  const auto grid = grid_coords(proc);
  std::vector<Index> coords(rank());
  for (std::size_t i = 0; i < rank(); ++i) {
    const Index l = offset % local_extent(i);
    offset /= local_extent(i);
    coords[i] = dim_layout(i).global_index(grid[i], l);
  }
  return coords;
}

std::vector<Index> Geometry::local_linear_indices(Index proc) const {
  const auto grid = grid_coords(proc);
  // term[i][l]: contribution of local index l on dimension i to the linear index.
  std::vector<std::vector<Index>> term(rank());
  Index stride = 1;
  for (std::size_t i = 0; i < rank(); ++i) {
    const BlockCyclic layout = dim_layout(i);
    for (Index l = 0; l < local_extent(i); ++l) term[i].push_back(layout.global_index(grid[i], l) * stride);
    stride *= extents_[i];
  }
  std::vector<Index> out;
  out.reserve(static_cast<std::size_t>(local_size()));
  std::vector<Index> local(rank(), 0);
  Index above = 0;  // contribution of dimensions 1..d-1
  for (std::size_t i = 1; i < rank(); ++i) above += term[i][0];
  for (;;) {
    for (Index t : term[0]) out.push_back(above + t);
    std::size_t i = 1;  // odometer over dimensions 1..d-1
    for (; i < rank(); ++i) {
      above -= term[i][static_cast<std::size_t>(local[i])];
      if (++local[i] < local_extent(i)) {
        above += term[i][static_cast<std::size_t>(local[i])];
        break;
      }
      local[i] = 0;
      above += term[i][0];
    }
    if (i >= rank()) return out;
  }
}

Index Geometry::linear_index(std::span<const Index> coords) const {
  Index linear = 0;
  for (std::size_t i = rank(); i-- > 0;) linear = linear * extents_[i] + coords[i];
  return linear;
}

std::vector<Index> Geometry::coords_of_linear(Index linear) const {
  std::vector<Index> coords(rank());
  for (std::size_t i = 0; i < rank(); ++i) {
    coords[i] = linear % extents_[i];
    linear /= extents_[i];
  }
  return coords;
}

Index Geometry::owner(std::span<const Index> coords) const {
  std::vector<Index> grid(rank());
  for (std::size_t i = 0; i < rank(); ++i) grid[i] = dim_layout(i).owner(coords[i]);
  return proc_of_grid_coords(grid);
}

Index Geometry::local_offset(std::span<const Index> coords) const {
  Index offset = 0;
  for (std::size_t i = rank(); i-- > 0;) offset = offset * local_extent(i) + dim_layout(i).local_index(coords[i]);
  return offset;
}

}  // namespace redist::pack
