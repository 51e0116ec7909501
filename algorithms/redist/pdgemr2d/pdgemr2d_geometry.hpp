// What every rank of ScaLAPACK's pdgemr2d knows once its parameters are exchanged (REDIST/SRC/
// pdgemr.c): each matrix's two dimensions after its change of origin (the submatrix then starts in
// the first block, on a new first process), where this rank's part of the submatrix starts in its
// local storage, how large its send and receive buffers are, and the order in which the ranks
// meet (its "caterpillar": ranks of both grids first, in rank order, then those of one grid only).
// The copy (pdgemr2d_copy.hpp) and its prediction (pdgemr2d_prediction.hpp) both work from it.
#pragma once

#include <vector>

#include "redist/indexing/submatrix_plan.hpp"

namespace redist {

/// One dimension of one matrix as pdgemr2d scans it, after changing the origin: the submatrix's
/// `extent` indices start at `offset` (< block) in block 0, which lies on process `first`.
struct Pdgemr2dDimension {
  Index block = 1;   ///< MB (or NB); the whole extent plus offset where the grid has one process
  Index procs = 1;
  Index first = 0;   ///< the new RSRC (or CSRC)
  Index offset = 0;  ///< IA mod MB: where the submatrix starts in its first block
  Index extent = 0;  ///< m (or n)
};

/// A rank's place in one grid: its coordinates, and where its part of the submatrix starts in its
/// local storage (rows, columns, with its own LLD).
struct Pdgemr2dPlace {
  bool in_grid = false;
  Index row = -1, col = -1;
  Index base = 0;         ///< local offset of the first local row and column of the shifted matrix
  Index leading_dim = 1;
  Index buffer_elements = 0;  ///< pdgemr2d's buffer on this side: the shifted matrix's local size
};

struct Pdgemr2dGeometry {
  Pdgemr2dDimension from_rows, from_cols, to_rows, to_cols;
  Pdgemr2dPlace from, to;  ///< this rank in the source grid (sends) and the destination grid (receives)
  /// The caterpillar's slots: slot k holds sender[k] (a source grid process, -1 for none) and
  /// receiver[k] (a destination one); `slot` is this rank's, -1 when in neither grid.
  std::vector<Index> sender, receiver;
  Index slot = -1;
  std::vector<Rank> from_ranks, to_ranks;  ///< grid process → rank, as the copy's grids give them
  /// Steps of the loop: the larger grid's process count.
  Index steps() const { return static_cast<Index>(sender.size()); }
};

/// Refuses what pdgemr2d does not do: a trapezoid (p?trmr2d's) or a transposition (p?tran's).
/// Throws std::invalid_argument naming it, and for a submatrix_copy_problem.
void check_pdgemr2d_copy(const SubmatrixCopy& copy, Rank me);

/// The geometry as rank `me` of `ranks` sees it (`me` may be in neither grid).
Pdgemr2dGeometry pdgemr2d_geometry(const SubmatrixCopy& copy, Rank me, Rank ranks);

/// The slot this rank meets at `step` of its loop, counted from 0: pdgemr2d starts at slot
/// steps − 1 − slot and goes down, wrapping around, so that two slots meet when they add up to
/// steps − 1 − step (mod steps).
inline Index pdgemr2d_partner(Index steps, Index slot, Index step) {
  return ((steps - 1 - slot - step) % steps + steps) % steps;
}

}  // namespace redist
