#include "redist/indexing/matrix_copy.hpp"

#include <stdexcept>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

std::string one_based_span(Index first0, Index count) {
  return std::to_string(first0 + 1) + "-" + std::to_string(first0 + count);
}

// The submatrix [row0, row0 + rows) x [col0, col0 + cols) of a matrix described by `d`.
std::string submatrix_outside_problem(const ScalapackDescriptor& d, Index row0, Index col0, Index rows, Index cols,
                           const std::string& side) {
  if (row0 < 0 || col0 < 0) return side + ": the submatrix starts before the matrix's first row or column";
  if (row0 > d.rows - rows || col0 > d.cols - cols) {
    return side + ": rows " + one_based_span(row0, rows) + " x columns " + one_based_span(col0, cols) + " lie outside its " +
           std::to_string(d.rows) + " x " + std::to_string(d.cols) + " matrix";
  }
  return {};
}

StoredMatrix stored_matrix_of(const ScalapackDescriptor& d, Rank me, bool source, const RankMap& ranks) {
  StoredMatrix m{BlockCyclic(d.rows, d.row_block, d.grid_rows, d.first_row),
                 BlockCyclic(d.cols, d.col_block, d.grid_cols, d.first_col), 1, {}};
  for (Index p = 0; p < d.processes(); ++p) m.grid_ranks.push_back(source ? ranks.source_rank(p) : ranks.dest_rank(p));
  if (const Index p = m.process_of(me); p >= 0) m.leading_dim = std::max<Index>(1, m.rows.local_size(p / d.grid_cols));
  return m;
}

}  // namespace

MatrixCopy MatrixCopy::whole(const ScalapackDescriptor& from, const ScalapackDescriptor& to) {
  return {from, to, 0, 0, 0, 0, from.rows, from.cols};
}

bool MatrixCopy::whole() const {
  return from_row0 == 0 && from_col0 == 0 && to_row0 == 0 && to_col0 == 0 && rows == from.rows && cols == from.cols &&
         rows == to.rows && cols == to.cols;
}

std::string matrix_copy_problem(const MatrixCopy& copy) {
  for (const auto& [d, side] : {std::pair{&copy.from, "source"}, std::pair{&copy.to, "destination"}}) {
    try {
      scalapack_layout(*d);
    } catch (const std::invalid_argument& e) {
      return std::string(side) + ": " + e.what();
    }
  }
  if (copy.rows <= 0 || copy.cols <= 0) {
    return "submatrix " + std::to_string(copy.rows) + " x " + std::to_string(copy.cols) + ": it must have rows and columns";
  }
  for (const std::string& problem :
       {submatrix_outside_problem(copy.from, copy.from_row0, copy.from_col0, copy.rows, copy.cols, "source"),
        submatrix_outside_problem(copy.to, copy.to_row0, copy.to_col0, copy.rows, copy.cols, "destination")}) {
    if (!problem.empty()) return problem;
  }
  if (!copy.whole() && (copy.from.order == StorageOrder::RowMajor || copy.to.order == StorageOrder::RowMajor)) {
    return "a submatrix copy is ScaLAPACK's: its local storage is column-major (row-major applies to whole matrices)";
  }
  return {};
}

std::string matrix_copy_text(const MatrixCopy& copy) {
  std::string text = "A: " + descriptor_text(copy.from);
  if (!copy.whole()) text += ", rows " + one_based_span(copy.from_row0, copy.rows) + " x columns " + one_based_span(copy.from_col0, copy.cols);
  text += " -> B: " + descriptor_text(copy.to);
  if (!copy.whole()) text += ", rows " + one_based_span(copy.to_row0, copy.rows) + " x columns " + one_based_span(copy.to_col0, copy.cols);
  return text;
}

SubmatrixCopy submatrix_copy(const MatrixCopy& copy, const RankMap& ranks, Rank me) {
  return {stored_matrix_of(copy.from, me, true, ranks), stored_matrix_of(copy.to, me, false, ranks),
          copy.from_row0, copy.from_col0, copy.to_row0, copy.to_col0, copy.rows, copy.cols};
}

}  // namespace redist
