// ScaLAPACK's array descriptors as the drop-in entries read them: which of the integers a caller
// passes are read (as ScaLAPACK's own routine reads them), what each rank can check alone, and
// the StoredMatrix (redist/indexing/submatrix_plan.hpp) the grid's ranks describe together.
#pragma once

#include <array>
#include <string>

#include "redist/indexing/submatrix_plan.hpp"

namespace redist::scalapack {

/// Whose reading of a descriptor a routine follows.
enum class Reader {
  /// REDIST's p?gemr2d and p?trmr2d: nine entries, DTYPE_ never read; LLD_ at least the local
  /// rows (0 where a process holds none).
  Redist,
  /// PBLAS's p?tran (PB_CargFtoC, PB_Cchkmat): DTYPE_ 1 (nine entries) or 2 (eleven, with IMB_
  /// and INB_); RSRC_ and CSRC_ may be -1 (replicated); LLD_ at least 1, and at least the local
  /// rows where the process holds columns.
  Pblas,
};

/// A descriptor in the eleven-entry form (DTYPE_, CTXT_, M_, N_, IMB_, INB_, MB_, NB_, RSRC_,
/// CSRC_, LLD_); a nine-entry one has IMB_ = MB_ and INB_ = NB_.
struct Descriptor {
  int dtype = 1, context = -1;
  int rows = 0, cols = 0;
  int first_row_block = 1, first_col_block = 1;
  int row_block = 1, col_block = 1;
  int first_row = 0, first_col = 0;
  int leading_dim = 1;
};

/// The entries of `desc` that `reader` reads (Redist: the nine of a DTYPE-1 descriptor, its
/// DTYPE_ left unread and reported as 1; Pblas: DTYPE_, then nine or eleven entries as DTYPE_
/// says, or none more for another type).
Descriptor read_descriptor(const int* desc, Reader reader);

/// A rank's place in a BLACS grid (Cblacs_gridinfo): -1 for row and column outside it.
struct GridPlace {
  int rows = -1, cols = -1;  ///< the grid's shape
  int row = -1, col = -1;    ///< this rank's process
  bool inside() const { return row >= 0 && col >= 0; }
};

/// What is wrong with `desc` on a rank at `place` in its grid, as "<FIELD_> <value> ..."; empty
/// when nothing is. `empty` (the call moves no element) relaxes what PBLAS relaxes then.
std::string descriptor_problem(const Descriptor& desc, const GridPlace& place, Reader reader, bool empty);

/// PBLAS's replicated matrix (RSRC_ -1: every process row holds all the rows; CSRC_ -1: every
/// process column all the columns) as the copy held by process row `row` (column `col`) alone, in
/// one block: that process's local storage is the same. Other descriptors are returned as they are.
Descriptor held_by(Descriptor desc, int row, int col);

/// The rows (first) and columns (second) missing in front of a matrix whose first block is
/// smaller than the others (IMB_ < MB_, INB_ < NB_): redist sees it as a block-cyclic matrix that
/// many rows and columns larger, of which the first are not there (in the first process row's and
/// column's first block). 0 where the first block is of full size or holds the whole extent.
std::array<Index, 2> missing_front(const Descriptor& desc);

/// The matrix as redist's indexing sees it (with missing_front's rows and columns in front);
/// grid_ranks left empty for the caller to fill, and leading_dim this rank's. Precondition: no
/// descriptor_problem, positive sizes, no replicated dimension (held_by).
StoredMatrix stored_matrix(const Descriptor& desc, int grid_rows, int grid_cols);

}  // namespace redist::scalapack
