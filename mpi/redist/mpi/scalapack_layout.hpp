// ScaLAPACK-style 2-D block-cyclic descriptors as redist layouts.
//
// A matrix of rows × cols elements, cut into row_block × col_block blocks dealt cyclically over a
// grid_rows × grid_cols process grid starting at process (first_row, first_col) — ScaLAPACK's
// DESC fields M, N, MB, NB, RSRC, CSRC over a BLACS grid. Each process stores its local matrix
// column-major with leading dimension = its number of local rows (LLD = LOCr, no padding).
// Processes are numbered row-major over the grid, as Cblacs_gridinit(..., "Row", ...) does:
// process (pr, pc) is rank pr · grid_cols + pc of the communicator.
#pragma once

#include "redist/layout/layout.hpp"

namespace redist::mpi {

struct ScalapackDescriptor {
  Index rows = 0, cols = 0;             ///< M, N
  Index row_block = 1, col_block = 1;   ///< MB, NB
  Index grid_rows = 1, grid_cols = 1;   ///< Pr, Pc
  Index first_row = 0, first_col = 0;   ///< RSRC, CSRC
};

/// The layout of a descriptor: a 2-D MultiDimLayout, column-major local storage. The element
/// identity shared with other layouts is the row-major index row · cols + col. Throws
/// std::invalid_argument for non-positive sizes or blocks, or a first process outside the grid.
Layout scalapack_layout(const ScalapackDescriptor& descriptor);

}  // namespace redist::mpi
