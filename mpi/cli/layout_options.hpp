// The layouts of a redist-mpi run, from its command line: 1-D CYCLIC(r)/P -> CYCLIC(s)/Q of N
// elements, or a 2-D copy between ScaLAPACK descriptors (--rows/--cols with --src-grid PrxPc
// --src-block MBxNB ...), of whole matrices or, with --dst-matrix, --src-at, --dst-at and --sub, of
// sub(A) into sub(B) as `redist simulate` takes it (requested_matrix_copy reads both).
#pragma once

#include <limits>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "redist/indexing/matrix_copy.hpp"
#include "redist/mpi/scalapack_layout.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist::mpi::cli {

struct LayoutOptions {
  static constexpr Index kNotGiven = std::numeric_limits<Index>::min();  // so that -1 is refused as a size, not taken as absent
  Index P = kNotGiven, r = kNotGiven, Q = kNotGiven, s = kNotGiven, N = kNotGiven;  // 1-D
  Index rows = kNotGiven, cols = kNotGiven;                                           // 2-D
  std::string src_grid, src_block, src_first = "0,0", dst_grid, dst_block, dst_first = "0,0";
  std::string src_order = "column-major", dst_order = "column-major";
  std::string dst_matrix, src_at, dst_at, sub;  // 2-D submatrix copy; empty: absent
  std::string placement = "shared";

  void add_to(CLI::App& app);
  bool two_dimensional() const { return rows != kNotGiven || cols != kNotGiven; }
  /// The copy of a 2-D run: whole matrices, or sub(A) into sub(B). Throws std::invalid_argument for
  /// malformed, missing or refused values (a submatrix outside its matrix, of row-major storage).
  MatrixCopy matrix_copy() const;
  /// Source and destination layouts (2-D: of A and B whole). Throws std::invalid_argument when
  /// incomplete or bad.
  std::pair<Layout, Layout> layouts() const;
  RankMap ranks(Index source_processors) const;
};

}  // namespace redist::mpi::cli
