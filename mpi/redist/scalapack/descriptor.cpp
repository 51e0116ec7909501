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

std::string field(const char* name, int value, const std::string& why) {
  return std::string(name) + " " + std::to_string(value) + " " + why;
}

}  // namespace

Descriptor read_descriptor(const int* d, Reader reader) {
  Descriptor out;
  if (reader == Reader::Redist) {  // REDIST's MDESC: DTYPE_ is a member it never reads
    out = {1, d[1], d[2], d[3], d[4], d[5], d[4], d[5], d[6], d[7], d[8]};
  } else if (d[0] == 1) {
    out = {1, d[1], d[2], d[3], d[4], d[5], d[4], d[5], d[6], d[7], d[8]};
  } else if (d[0] == 2) {
    out = {2, d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10]};
  } else {  // PB_CargFtoC reads DTYPE_ and CTXT_ only
    out.dtype = d[0];
    out.context = d[1];
  }
  return out;
}

std::string descriptor_problem(const Descriptor& d, const GridPlace& place, Reader reader, bool empty) {
  const bool pblas = reader == Reader::Pblas;
  if (pblas && d.dtype != 1 && d.dtype != 2) {
    return field("DTYPE_", d.dtype, "is neither 1 nor 2 (the two types PBLAS takes)");
  }
  if (d.rows < 0) return field("M_", d.rows, "is negative");
  if (d.cols < 0) return field("N_", d.cols, "is negative");
  if (d.dtype == 2 && d.first_row_block < 1) return field("IMB_", d.first_row_block, "is not a positive block size");
  if (d.dtype == 2 && d.first_col_block < 1) return field("INB_", d.first_col_block, "is not a positive block size");
  if (d.row_block < 1) return field("MB_", d.row_block, "is not a positive block size");
  if (d.col_block < 1) return field("NB_", d.col_block, "is not a positive block size");
  if (pblas && d.first_row == -1 && !empty) {
    return field("RSRC_", d.first_row, "(a matrix replicated over the process rows) is not supported by redist");
  }
  if (pblas && d.first_col == -1 && !empty) {
    return field("CSRC_", d.first_col, "(a matrix replicated over the process columns) is not supported by redist");
  }
  const int lowest = pblas ? -1 : 0;
  if (d.first_row < lowest || d.first_row >= place.rows) {
    return field("RSRC_", d.first_row, "is outside the " + std::to_string(place.rows) + " process rows");
  }
  if (d.first_col < lowest || d.first_col >= place.cols) {
    return field("CSRC_", d.first_col, "is outside the " + std::to_string(place.cols) + " process columns");
  }
  if (pblas && empty) {  // PB_Cchkmat's relaxed checks for an empty operation
    if (d.leading_dim < 1) return field("LLD_", d.leading_dim, "is below 1");
    return {};
  }
  if (d.first_row_block != d.row_block && place.rows > 1) {  // one process row: any first block lays out alike
    return field("IMB_", d.first_row_block,
                 "differs from MB_ " + std::to_string(d.row_block) + " (redist takes a first block of the full size only)");
  }
  if (d.first_col_block != d.col_block && place.cols > 1) {
    return field("INB_", d.first_col_block,
                 "differs from NB_ " + std::to_string(d.col_block) + " (redist takes a first block of the full size only)");
  }
  const Index local_rows = local_extent(d.rows, d.row_block, place.row, d.first_row, place.rows);
  if (!pblas) {  // REDIST's paramcheck: LLD_ at least the local rows, 0 where there are none
    if (d.leading_dim < local_rows) {
      return field("LLD_", d.leading_dim, "is below the " + std::to_string(local_rows) + " local rows");
    }
    return {};
  }
  if (d.leading_dim < 1) return field("LLD_", d.leading_dim, "is below 1");
  const Index local_cols = local_extent(d.cols, d.col_block, place.col, d.first_col, place.cols);
  if (local_cols > 0 && d.leading_dim < local_rows) {
    return field("LLD_", d.leading_dim, "is below the " + std::to_string(local_rows) + " local rows");
  }
  return {};
}

StoredMatrix stored_matrix(const Descriptor& d, int grid_rows, int grid_cols) {
  return {BlockCyclic(d.rows, d.row_block, grid_rows, d.first_row), BlockCyclic(d.cols, d.col_block, grid_cols, d.first_col),
          d.leading_dim, {}};
}

}  // namespace redist::scalapack
