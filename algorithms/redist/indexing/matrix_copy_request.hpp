// A 2-D copy as a run asks for it: A's and B's descriptors and, each optional, B's size, sub(A)'s
// and sub(B)'s first row and column (1-based, ScaLAPACK's IA, JA and IB, JB) and the m x n copied.
// `redist simulate` (the redistribute experiment's parameters dst_matrix, src_at, dst_at, sub) and
// `redist-mpi run` (--dst-matrix, --src-at, --dst-at, --sub) read the same fields: this is the one
// place that says what an absent field means and which copies are refused, so that a case measured
// under mpirun and simulated is the same copy.
#pragma once

#include <optional>
#include <utility>

#include "redist/indexing/matrix_copy.hpp"

namespace redist {

struct MatrixCopyRequest {
  ScalapackDescriptor from;  ///< A
  ScalapackDescriptor to;    ///< B's grid, blocks, first process and order; its size is dst_matrix's
  std::optional<std::pair<Index, Index>> dst_matrix = std::nullopt;  ///< B's rows x columns (absent: A's)
  std::optional<std::pair<Index, Index>> src_at = std::nullopt;      ///< IA, JA (absent: 1, 1)
  std::optional<std::pair<Index, Index>> dst_at = std::nullopt;      ///< IB, JB (absent: 1, 1)
  std::optional<std::pair<Index, Index>> sub = std::nullopt;         ///< m x n (absent: the rest of A from IA, JA)
};

/// The copy `request` asks for. Throws std::invalid_argument with matrix_copy_problem's line when it
/// cannot be (a bad descriptor, a submatrix outside its matrix, a submatrix of row-major storage).
MatrixCopy requested_matrix_copy(const MatrixCopyRequest& request);

}  // namespace redist
