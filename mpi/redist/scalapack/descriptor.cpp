#include "redist/scalapack/descriptor.hpp"

#include <algorithm>

namespace redist::scalapack {
namespace {

// ScaLAPACK's NUMROC: the rows (or columns) of `extent` in blocks of `block` that process
// `process` of `processes` holds, block 0 on process `first`; 0 for an empty extent.
Index local_extent(Index extent, Index block, Index process, Index first, Index processes) {
  if (extent <= 0) return 0;
  return BlockCyclic(extent, block, processes, first).local_size(process);
}

}  // namespace

std::string descriptor_problem(const Descriptor& d, const GridPlace& place) {
  const auto field = [](const char* name, int value, const std::string& why) {
    return std::string(name) + " " + std::to_string(value) + " " + why;
  };
  if (d.dtype != 1) return field("DTYPE_", d.dtype, "is not 1 (a dense block-cyclic matrix)");
  if (d.rows < 0) return field("M_", d.rows, "is negative");
  if (d.cols < 0) return field("N_", d.cols, "is negative");
  if (d.row_block < 1) return field("MB_", d.row_block, "is not a positive block size");
  if (d.col_block < 1) return field("NB_", d.col_block, "is not a positive block size");
  if (d.first_row < 0 || d.first_row >= place.rows) {
    return field("RSRC_", d.first_row, "is outside the " + std::to_string(place.rows) + " process rows");
  }
  if (d.first_col < 0 || d.first_col >= place.cols) {
    return field("CSRC_", d.first_col, "is outside the " + std::to_string(place.cols) + " process columns");
  }
  const Index local_rows = local_extent(d.rows, d.row_block, place.row, d.first_row, place.rows);
  if (d.leading_dim < std::max<Index>(1, local_rows)) {
    return field("LLD_", d.leading_dim, "is below the " + std::to_string(local_rows) + " local rows");
  }
  return {};
}

StoredMatrix stored_matrix(const Descriptor& d, int grid_rows, int grid_cols) {
  return {BlockCyclic(d.rows, d.row_block, grid_rows, d.first_row), BlockCyclic(d.cols, d.col_block, grid_cols, d.first_col),
          d.leading_dim, {}};
}

}  // namespace redist::scalapack
