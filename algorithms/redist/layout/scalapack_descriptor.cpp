#include "redist/layout/scalapack_descriptor.hpp"

#include <stdexcept>
#include <string>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

void require_in_grid(Index first, Index extent, const char* what) {
  if (first < 0 || first >= extent) {
    throw std::invalid_argument(std::string(what) + " " + std::to_string(first) + " is outside a grid extent of " +
                                std::to_string(extent));
  }
}

}  // namespace

Layout scalapack_layout(const ScalapackDescriptor& d) {
  require_positive(d.rows, "matrix rows");
  require_positive(d.cols, "matrix columns");
  require_positive(d.row_block, "row block");
  require_positive(d.col_block, "column block");
  require_positive(d.grid_rows, "process grid rows");
  require_positive(d.grid_cols, "process grid columns");
  require_in_grid(d.first_row, d.grid_rows, "first process row");
  require_in_grid(d.first_col, d.grid_cols, "first process column");
  return MultiDimLayout({DimMapping::distributed(BlockCyclic(d.rows, d.row_block, d.grid_rows, d.first_row)),
                         DimMapping::distributed(BlockCyclic(d.cols, d.col_block, d.grid_cols, d.first_col))},
                        d.order);
}

std::string descriptor_text(const ScalapackDescriptor& d) {
  return std::to_string(d.rows) + " x " + std::to_string(d.cols) + " in " + std::to_string(d.row_block) + " x " +
         std::to_string(d.col_block) + " blocks on a " + std::to_string(d.grid_rows) + " x " +
         std::to_string(d.grid_cols) + " grid from (" + std::to_string(d.first_row) + ", " +
         std::to_string(d.first_col) + ")" + (d.order == StorageOrder::RowMajor ? ", row-major" : "");
}

}  // namespace redist
