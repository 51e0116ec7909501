// Geometry of paper 001's arrays (§3): a rank-d array of shape (N_{d-1}, ..., N_1, N_0), row-major
// with dimension 0 varying fastest, distributed block-cyclic(W_i) on every dimension over a processor
// grid (P_{d-1}, ..., P_0). As in the paper, P_i·W_i divides N_i, so every processor holds
// L_i = N_i / P_i = T_i·W_i elements on dimension i (T_i tiles of W_i).
// Processors are numbered with grid dimension 0 fastest: rank = Σ g_i · Π_{k<i} P_k. A local array is
// stored like the global one: (L_{d-1}, ..., L_0), dimension 0 fastest.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "redist/layout/block_cyclic.hpp"

namespace redist::pack {

class Geometry {
 public:
  /// Vectors indexed by dimension i (0 = fastest). Throws std::invalid_argument for an empty or
  /// mismatched shape, a non-positive value, P_i·W_i not dividing N_i, or an overflowing size.
  Geometry(std::vector<Index> extents, std::vector<Index> procs, std::vector<Index> blocks);

  std::size_t rank() const { return extents_.size(); }
  Index extent(std::size_t i) const { return extents_[i]; }
  Index procs(std::size_t i) const { return procs_[i]; }
  Index block(std::size_t i) const { return blocks_[i]; }
  Index local_extent(std::size_t i) const { return extents_[i] / procs_[i]; }  ///< L_i
  Index tiles(std::size_t i) const { return local_extent(i) / blocks_[i]; }    ///< T_i
  /// Π_{k>i} L_k: the rows of the base-rank arrays PS_i, RS_i (whose shape is (L_{d-1},..,L_{i+1},T_i)).
  Index outer(std::size_t i) const;
  /// C = (Π_{i≥1} L_i)·T_0: the slices of W_0 elements of every local array.
  Index slices() const { return outer(0) * tiles(0); }

  Index processors() const { return processors_; }  ///< P
  Index size() const { return size_; }              ///< N
  Index local_size() const { return size_ / processors_; }  ///< L

  /// The 1-D distribution of dimension i.
  BlockCyclic dim_layout(std::size_t i) const { return BlockCyclic(extents_[i], blocks_[i], procs_[i]); }
  /// The same array and grid with BLOCK on every dimension (W_i = L_i).
  Geometry as_block() const;

  std::vector<Index> grid_coords(Index proc) const;
  Index proc_of_grid_coords(std::span<const Index> grid) const;
  /// Ranks of the processors sharing `proc`'s grid coordinates except on dimension i, by g_i.
  std::vector<Index> line(Index proc, std::size_t i) const;

  /// Global coordinates of local offset `offset` of processor `proc`.
  std::vector<Index> global_coords(Index proc, Index offset) const;
  /// Global linear index of every local element of `proc`, in local storage order (one pass, no
  /// per-element allocation: what building local arrays needs).
  std::vector<Index> local_linear_indices(Index proc) const;
  /// Row-major global linear index (the rank of the element when every mask value is true).
  Index linear_index(std::span<const Index> coords) const;
  std::vector<Index> coords_of_linear(Index linear) const;
  Index owner(std::span<const Index> coords) const;
  Index local_offset(std::span<const Index> coords) const;

 private:
  std::vector<Index> extents_, procs_, blocks_;
  Index processors_ = 1;
  Index size_ = 1;
};

}  // namespace redist::pack
