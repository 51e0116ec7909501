#include "redist/scalapack/descriptor.hpp"

#include <algorithm>

namespace redist::scalapack {
namespace {

// One dimension as redist sees it: extent, block and the count missing in front (IMB_ < MB_), or
// one block holding it all (IMB_ at least the extent).
struct Dimension {
  Index extent, block, missing;
};

Dimension dimension(Index extent, Index first_block, Index block) {
  if (first_block == block || extent <= 0) return {extent, block, 0};
  if (first_block >= extent) return {extent, extent, 0};
  if (first_block < block) return {extent + block - first_block, block, block - first_block};
  return {extent, block, 0};  // a larger first block: one process only (descriptor_problem)
}

// PBLAS's local count (PB_Cnumroc) for a dimension with its first block: all of it on every
// process of a replicated dimension (first process -1).
Index local_count(const Dimension& d, Index process, Index first, Index processes) {
  if (d.extent <= 0) return 0;
  if (first == -1) return d.extent - d.missing;
  const Index virtual_count = BlockCyclic(d.extent, d.block, processes, first).local_size(process);
  return virtual_count - (process == first ? d.missing : 0);
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
  const int lowest = pblas ? -1 : 0;  // PBLAS: -1 for a matrix replicated over the process rows (columns)
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
  // A first block larger than the others but not holding the whole extent: redist cannot lay it
  // out (on one process row, or column, any first block lays out alike, and a replicated
  // dimension has no blocks).
  if (d.first_row_block > d.row_block && d.first_row_block < d.rows && place.rows > 1 && d.first_row != -1) {
    return field("IMB_", d.first_row_block,
                 "above MB_ " + std::to_string(d.row_block) + " and below M_ " + std::to_string(d.rows) +
                     " (a first block larger than the others is not supported by redist)");
  }
  if (d.first_col_block > d.col_block && d.first_col_block < d.cols && place.cols > 1 && d.first_col != -1) {
    return field("INB_", d.first_col_block,
                 "above NB_ " + std::to_string(d.col_block) + " and below N_ " + std::to_string(d.cols) +
                     " (a first block larger than the others is not supported by redist)");
  }
  const Index local_rows = local_count(dimension(d.rows, d.first_row_block, d.row_block), place.row, d.first_row, place.rows);
  if (!pblas) {  // REDIST's paramcheck: LLD_ at least the local rows, 0 where there are none
    if (d.leading_dim < local_rows) {
      return field("LLD_", d.leading_dim, "is below the " + std::to_string(local_rows) + " local rows");
    }
    return {};
  }
  if (d.leading_dim < 1) return field("LLD_", d.leading_dim, "is below 1");
  const Index local_cols = local_count(dimension(d.cols, d.first_col_block, d.col_block), place.col, d.first_col, place.cols);
  if (local_cols > 0 && d.leading_dim < local_rows) {
    return field("LLD_", d.leading_dim, "is below the " + std::to_string(local_rows) + " local rows");
  }
  return {};
}

Descriptor held_by(Descriptor d, int row, int col) {
  if (d.first_row == -1) {
    d.first_row_block = d.row_block = std::max(1, d.rows);
    d.first_row = row;
  }
  if (d.first_col == -1) {
    d.first_col_block = d.col_block = std::max(1, d.cols);
    d.first_col = col;
  }
  return d;
}

std::array<Index, 2> missing_front(const Descriptor& d) {
  return {dimension(d.rows, d.first_row_block, d.row_block).missing, dimension(d.cols, d.first_col_block, d.col_block).missing};
}

StoredMatrix stored_matrix(const Descriptor& d, int grid_rows, int grid_cols) {
  const Dimension rows = dimension(d.rows, d.first_row_block, d.row_block);
  const Dimension cols = dimension(d.cols, d.first_col_block, d.col_block);
  return {BlockCyclic(rows.extent, rows.block, grid_rows, d.first_row),
          BlockCyclic(cols.extent, cols.block, grid_cols, d.first_col), d.leading_dim, {}};
}

}  // namespace redist::scalapack
