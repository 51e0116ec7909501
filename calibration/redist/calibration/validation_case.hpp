// One redistribution `redist validate` runs for real under mpirun and in the simulator: a 1-D
// CYCLIC(r)/P -> CYCLIC(s)/Q of N elements, or a whole matrix between two ScaLAPACK descriptors;
// its indexing method, schedule, relabelling and placement.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "redist/core/int_math.hpp"
#include "redist/indexing/matrix_copy.hpp"

namespace redist::calibration {

struct ValidationCase {
  Index P = 1, r = 1, Q = 1, s = 1, N = 1;  ///< 1-D
  std::string indexing, schedule;
  std::string relabel = "none";  ///< none, exact or greedy (with shared placement only)
  bool disjoint = false;         ///< destinations on ranks P, P+1, ... instead of the sources' ranks
  /// 2-D: a whole matrix between two descriptors (P, r, Q, s, N unused).
  std::optional<MatrixCopy> matrix = std::nullopt;

  Index sources() const { return matrix ? matrix->from.processes() : P; }
  Index destinations() const { return matrix ? matrix->to.processes() : Q; }
  Index ranks() const { return disjoint ? sources() + destinations() : std::max(sources(), destinations()); }
  std::string placement() const { return disjoint ? "disjoint" : "shared"; }
  /// Which set of `redist validate`'s report the case is in: "1-D" or "2-D".
  std::string family() const { return matrix ? "2-D" : "1-D"; }
  std::string label() const {
    const std::string layouts =
        matrix ? fmt::format("{}x{} {}x{} {}x{} ({},{}){} -> {}x{} {}x{} ({},{}){}", matrix->from.rows, matrix->from.cols,
                             matrix->from.grid_rows, matrix->from.grid_cols, matrix->from.row_block,
                             matrix->from.col_block, matrix->from.first_row, matrix->from.first_col,
                             matrix->from.order == StorageOrder::RowMajor ? " row-major" : "", matrix->to.grid_rows,
                             matrix->to.grid_cols, matrix->to.row_block, matrix->to.col_block, matrix->to.first_row,
                             matrix->to.first_col, matrix->to.order == StorageOrder::RowMajor ? " row-major" : "")
               : fmt::format("P={} r={} Q={} s={} N={}", P, r, Q, s, N);
    return fmt::format("{} {}/{}{}{}", layouts, indexing, schedule, relabel == "none" ? "" : " relabel " + relabel,
                       disjoint ? " disjoint" : "");
  }
};

}  // namespace redist::calibration
