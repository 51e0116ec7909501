// ScaLAPACK's array descriptors (DTYPE 1, the dense block-cyclic matrix) as the drop-in entries
// read them: the nine integers a caller passes, what each rank can check alone, and the
// StoredMatrix (redist/indexing/submatrix_plan.hpp) the grid's ranks describe together.
#pragma once

#include <array>
#include <string>

#include "redist/indexing/submatrix_plan.hpp"

namespace redist::scalapack {

/// The nine fields of a DTYPE-1 descriptor, in ScaLAPACK's order (DTYPE_, CTXT_, M_, N_, MB_,
/// NB_, RSRC_, CSRC_, LLD_).
struct Descriptor {
  int dtype = 1, context = -1;
  int rows = 0, cols = 0;
  int row_block = 1, col_block = 1;
  int first_row = 0, first_col = 0;
  int leading_dim = 1;
};

/// A rank's place in a BLACS grid (Cblacs_gridinfo): -1 for row and column outside it.
struct GridPlace {
  int rows = -1, cols = -1;  ///< the grid's shape
  int row = -1, col = -1;    ///< this rank's process
  bool inside() const { return row >= 0 && col >= 0; }
};

/// What is wrong with `desc` on a rank at `place` in its grid (DTYPE, sizes, blocks, first
/// process, LLD below the local rows), as "<FIELD_> <value> ..."; empty when nothing is.
std::string descriptor_problem(const Descriptor& desc, const GridPlace& place);

/// The matrix as redist's indexing sees it; grid_ranks left empty for the caller to fill, and
/// leading_dim this rank's. Precondition: no descriptor_problem, positive sizes.
StoredMatrix stored_matrix(const Descriptor& desc, int grid_rows, int grid_cols);

}  // namespace redist::scalapack
