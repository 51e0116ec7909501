// ScaLAPACK-style 2-D block-cyclic descriptors as redist layouts.
//
// A matrix of rows × cols elements, cut into row_block × col_block blocks dealt cyclically over a
// grid_rows × grid_cols process grid starting at process (first_row, first_col) — ScaLAPACK's
// DESC fields M, N, MB, NB, RSRC, CSRC over a BLACS grid. Each process stores its local matrix
// densely: column-major with leading dimension = its number of local rows (LLD = LOCr, no padding,
// ScaLAPACK's storage), or row-major. Processes are numbered row-major over the grid, as
// Cblacs_gridinit(..., "Row", ...) does: process (pr, pc) is rank pr · grid_cols + pc.
//
// One description for every place that takes a 2-D layout: the MPI API (redist::mpi), redist-mpi,
// and the simulator's and the prediction's 2-D cases.
#pragma once

#include <string>

#include "redist/layout/layout.hpp"
#include "redist/layout/multi_dim.hpp"

namespace redist {

struct ScalapackDescriptor {
  Index rows = 0, cols = 0;             ///< M, N
  Index row_block = 1, col_block = 1;   ///< MB, NB
  Index grid_rows = 1, grid_cols = 1;   ///< Pr, Pc
  Index first_row = 0, first_col = 0;   ///< RSRC, CSRC
  StorageOrder order = StorageOrder::ColumnMajor;  ///< of each process's local matrix

  /// Pr · Pc.
  Index processes() const { return grid_rows * grid_cols; }
  friend bool operator==(const ScalapackDescriptor&, const ScalapackDescriptor&) = default;
};

/// The layout of a descriptor: a 2-D MultiDimLayout in the descriptor's local storage order. The
/// element identity shared with other layouts is the row-major index row · cols + col. Throws
/// std::invalid_argument for non-positive sizes or blocks, or a first process outside the grid.
Layout scalapack_layout(const ScalapackDescriptor& descriptor);

/// "M x N in MB x NB blocks on a Pr x Pc grid from (RSRC, CSRC)", with ", row-major" where it is.
std::string descriptor_text(const ScalapackDescriptor& descriptor);

}  // namespace redist
