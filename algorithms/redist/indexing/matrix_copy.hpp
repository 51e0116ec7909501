// A 2-D copy as a program asks ScaLAPACK's p?gemr2d for it: sub(A) = A(ia : ia+m-1, ja : ja+n-1) of
// a matrix described by one ScaLAPACK descriptor, to sub(B) = B(ib : ib+m-1, jb : jb+n-1) of a
// matrix described by another, each grid process on a rank of its side (RankMap). The simulator's
// and the prediction's 2-D cases are such copies.
//
// Where both submatrices are their whole matrices, the copy is a redistribution between two
// layouts (scalapack_layout), which every indexing method and schedule can run. Otherwise it is a
// SubmatrixCopy (indexing/submatrix_plan.hpp), which redist runs as the ScaLAPACK drop-in does:
// its submatrix plan and the default exchange. Local storage is dense (LLD = local rows); a
// submatrix needs ScaLAPACK's own column-major storage.
#pragma once

#include <string>

#include "redist/indexing/rank_map.hpp"
#include "redist/indexing/submatrix_plan.hpp"
#include "redist/layout/scalapack_descriptor.hpp"

namespace redist {

struct MatrixCopy {
  ScalapackDescriptor from, to;
  Index from_row0 = 0, from_col0 = 0;  ///< ia - 1, ja - 1
  Index to_row0 = 0, to_col0 = 0;      ///< ib - 1, jb - 1
  Index rows = 0, cols = 0;            ///< m, n

  /// The copy of the whole of `from` into the whole of `to` (the same M x N).
  static MatrixCopy whole(const ScalapackDescriptor& from, const ScalapackDescriptor& to);
  /// Both submatrices are their whole matrices.
  bool whole() const;
};

/// What is wrong with `copy`, as one line naming the side and the field (a descriptor's sizes,
/// blocks or first process; a submatrix outside its matrix; a submatrix of row-major storage);
/// empty when nothing is.
std::string matrix_copy_problem(const MatrixCopy& copy);

/// "A: <descriptor>, rows 1-40 x columns 1-20 -> B: ..." (1-based, as ScaLAPACK's IA, JA).
std::string matrix_copy_text(const MatrixCopy& copy);

/// The copy as rank `me` plays it (its dense local storage), the source processes on
/// ranks.source_rank(p), the destination ones on ranks.dest_rank(q), p and q numbered row-major
/// over their grids. Precondition: no matrix_copy_problem.
SubmatrixCopy submatrix_copy(const MatrixCopy& copy, const RankMap& ranks, Rank me);

}  // namespace redist
