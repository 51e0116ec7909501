// One redistribution `redist validate` runs for real under mpirun and in the simulator: a 1-D
// CYCLIC(r)/P -> CYCLIC(s)/Q of N elements, or a 2-D copy between two ScaLAPACK descriptors (a
// whole matrix, or sub(A) into sub(B) as ScaLAPACK's pdgemr2d takes it); its indexing method,
// schedule, relabelling and placement.
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
  /// 2-D: a whole matrix between two descriptors, or sub(A) into sub(B) (P, r, Q, s, N unused). A
  /// submatrix copy runs the ScaLAPACK drop-in's submatrix plan and the default exchange: its
  /// indexing is "submatrix", its schedule "async" (as `redist simulate` reports it), no relabelling.
  std::optional<MatrixCopy> matrix = std::nullopt;
  /// 2-D, column-major: ScaLAPACK's pdgemr2d moves the matrix (measured: `redist-mpi run --reference
  /// pdgemr2d`, its total alone; simulated: the redistribute experiment's method pdgemr2d), not redist.
  bool pdgemr2d = false;

  /// A 2-D copy of sub(A) into sub(B) other than the whole matrices.
  bool submatrix() const { return matrix && !matrix->whole(); }
  Index sources() const { return matrix ? matrix->from.processes() : P; }
  Index destinations() const { return matrix ? matrix->to.processes() : Q; }
  Index ranks() const { return disjoint ? sources() + destinations() : std::max(sources(), destinations()); }
  std::string placement() const { return disjoint ? "disjoint" : "shared"; }
  /// Which set of `redist validate`'s report the case is in: "1-D", "2-D" or "pdgemr2d".
  std::string family() const { return pdgemr2d ? "pdgemr2d" : matrix ? "2-D" : "1-D"; }
  /// The same matrix moved by pdgemr2d (matrix set, column-major).
  ValidationCase by_pdgemr2d() const {
    ValidationCase twin = *this;
    twin.pdgemr2d = true;
    twin.relabel = "none";
    return twin;
  }
  std::string label() const {
    std::string layouts =
        matrix ? fmt::format("{}x{} {}x{} {}x{} ({},{}){} -> {}x{} {}x{} ({},{}){}", matrix->from.rows, matrix->from.cols,
                             matrix->from.grid_rows, matrix->from.grid_cols, matrix->from.row_block,
                             matrix->from.col_block, matrix->from.first_row, matrix->from.first_col,
                             matrix->from.order == StorageOrder::RowMajor ? " row-major" : "", matrix->to.grid_rows,
                             matrix->to.grid_cols, matrix->to.row_block, matrix->to.col_block, matrix->to.first_row,
                             matrix->to.first_col, matrix->to.order == StorageOrder::RowMajor ? " row-major" : "")
               : fmt::format("P={} r={} Q={} s={} N={}", P, r, Q, s, N);
    if (submatrix()) {  // 1-based, as ScaLAPACK's IA, JA, IB, JB
      layouts += fmt::format(" sub {}x{} at {},{} -> {},{} of {}x{}", matrix->rows, matrix->cols, matrix->from_row0 + 1,
                             matrix->from_col0 + 1, matrix->to_row0 + 1, matrix->to_col0 + 1, matrix->to.rows,
                             matrix->to.cols);
    }
    if (pdgemr2d) return fmt::format("{} pdgemr2d{}", layouts, disjoint ? " disjoint" : "");
    return fmt::format("{} {}/{}{}{}", layouts, indexing, schedule, relabel == "none" ? "" : " relabel " + relabel,
                       disjoint ? " disjoint" : "");
  }
};

}  // namespace redist::calibration
