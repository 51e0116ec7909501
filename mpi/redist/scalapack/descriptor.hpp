// ScaLAPACK's array descriptors as the drop-in entries read them: which of the integers a caller
// passes are read (as ScaLAPACK's own routine reads them), what each rank can check alone, and
// the StoredMatrix (redist/indexing/submatrix_plan.hpp) the grid's ranks describe together.
#pragma once

#include <array>
#include <string>
#include <vector>

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

/// One stretch of a dimension (rows or columns) of a PBLAS matrix, [begin, end), as redist lays it
/// out: global index g at `g - begin + virtual_begin` of BlockCyclic(size, block, processes, first),
/// whose local index on process `shift_process` is `shift` more than in the local storage (0
/// elsewhere). A first block of full size, or holding the whole extent, is one plain stretch; a
/// smaller one (IMB_ < MB_) is one stretch of the block-cyclic matrix with MB_ - IMB_ missing in
/// front (shift MB_ - IMB_ on the first process); a larger one (IMB_ > MB_, on more than one
/// process) is two: the first block alone on the first process, then the MB_-blocks dealt from the
/// next process (shift -IMB_ on the first: they follow its first block).
struct Stretch {
  Index begin = 0, end = 0, virtual_begin = 0;
  Index size = 1, block = 1, first = 0;
  Index shift_process = -1, shift = 0;
};

/// The stretches of a dimension of `extent` elements, first block `first_block`, then blocks of
/// `block`, over `processes` from process `first` (not -1: held_by first); none when extent ≤ 0.
std::vector<Stretch> stretches(Index extent, Index first_block, Index block, Index processes, Index first);

/// How many of the dimension's elements [begin, begin + count) process `process` holds.
Index held_in(const std::vector<Stretch>& dimension, Index begin, Index count, Index processes, Index process);

}  // namespace redist::scalapack
