// Indexing of ScaLAPACK-style copies between submatrices of two 2-D block-cyclic matrices, as
// p?gemr2d, p?trmr2d and p?tran move them: sub(A) = A(ia:ia+m-1, ja:ja+n-1) at any offset, local
// storage column-major with a leading dimension that may exceed the local rows (padding never
// touched), each grid process on any rank (BLACS grids of either order, Cblacs_gridmap maps,
// source and destination on different sets of ranks), the whole submatrix or one trapezoid of it,
// and optionally transposed.
//
// Rows and columns are indexed apart: a submatrix's rows on one process row are consecutive local
// rows, so each dimension is cut into segments where both owners stay the same (O(m/MB + m/MB')
// per dimension, as pdgemr2d's own interval scan), and a message is the product of one row and
// one column segment list. The runs are offsets in the ranks' actual local storage.
//
// Message order (both sides agree): sub(A) column by column, rows fastest.
#pragma once

#include <string>
#include <vector>

#include "redist/indexing/rank_plan.hpp"
#include "redist/layout/block_cyclic.hpp"

namespace redist {

/// A distributed matrix as a ScaLAPACK DTYPE-1 descriptor describes it, and the ranks it sits on.
struct StoredMatrix {
  BlockCyclic rows;           ///< M over the grid rows in blocks of MB, block 0 on process row RSRC
  BlockCyclic cols;           ///< N over the grid columns in blocks of NB, block 0 on column CSRC
  /// LLD of the calling rank's local storage (column-major, local column c at offset c · LLD):
  /// each rank has its own, and only its own is ever used.
  Index leading_dim = 1;
  /// The rank of grid process (pr, pc) at [pr · cols.procs() + pc] (distinct ranks).
  std::vector<Rank> grid_ranks;

  /// The grid process a rank plays, as pr · cols.procs() + pc, or -1.
  Index process_of(Rank rank) const;
};

/// Which part of the m × n submatrix is copied (p?trmr2d's UPLO and DIAG; p?gemr2d copies all).
enum class MatrixPart { All, Upper, Lower };

/// What one call copies: to(to_row0 + i, to_col0 + j) ← from(from_row0 + i, from_col0 + j) for the
/// elements (i, j) of the m × n part, 0-based (ia - 1, ja - 1, ...); with `transpose`,
/// to(to_row0 + j, to_col0 + i) ← from(from_row0 + i, from_col0 + j) (sub(C) is n × m).
struct SubmatrixCopy {
  StoredMatrix from, to;
  Index from_row0 = 0, from_col0 = 0;
  Index to_row0 = 0, to_col0 = 0;
  Index rows = 0, cols = 0;          ///< m, n of sub(from)
  MatrixPart part = MatrixPart::All;
  /// Upper: elements with j - i ≥ min(0, n - m); Lower: i - j ≥ min(0, m - n) (p?trmr2d's
  /// trapezoids: the diagonal ends in the bottom-right corner of a tall upper or a wide lower one);
  /// with a unit diagonal, that diagonal is left out too.
  bool unit_diagonal = false;
  bool transpose = false;
};

/// What is wrong with `copy` as rank `me` sees it (negative sizes, a submatrix outside its matrix,
/// its own LLD below its local rows, a grid without one rank per process or with a rank twice), as
/// one line naming the field; empty when nothing is.
std::string submatrix_copy_problem(const SubmatrixCopy& copy, Rank me);

/// Rank `me`'s sends (from its `from` storage) and receives (into its `to` storage), one peer plan
/// per peer rank with data, sorted by peer, self included. Precondition: no submatrix_copy_problem.
/// `counted`, where given, gains what building it counts: its interval scans, the segments of
/// sub-rows and of sub-columns where both owners stay the same (Intersection, O(m/MB + m/MB' + n/NB +
/// n/NB'), every rank alike), and the local offsets its loop computes (IndexOp: one a piece where a
/// column's rows lie together in the rank's storage, one an element where they do not). The pieces
/// it lists are listing_work's.
RankPlan submatrix_plan(const SubmatrixCopy& copy, Rank me, Work* counted = nullptr);

}  // namespace redist
