// The layouts of a redist-mpi run, from its command line: 1-D CYCLIC(r)/P -> CYCLIC(s)/Q of N
// elements, or 2-D ScaLAPACK descriptors (--rows/--cols with --src-grid PrxPc --src-block MBxNB ...).
#pragma once

#include <limits>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "redist/mpi/scalapack_layout.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist::mpi::cli {

struct LayoutOptions {
  static constexpr Index kNotGiven = std::numeric_limits<Index>::min();  // so that -1 is refused as a size, not taken as absent
  Index P = kNotGiven, r = kNotGiven, Q = kNotGiven, s = kNotGiven, N = kNotGiven;  // 1-D
  Index rows = kNotGiven, cols = kNotGiven;                                           // 2-D
  std::string src_grid, src_block, src_first = "0,0", dst_grid, dst_block, dst_first = "0,0";
  std::string src_order = "column-major", dst_order = "column-major";
  std::string placement = "shared";

  void add_to(CLI::App& app);
  bool two_dimensional() const { return rows != kNotGiven || cols != kNotGiven; }
  /// The two descriptors of a 2-D run. Throws std::invalid_argument for malformed or missing values.
  std::pair<ScalapackDescriptor, ScalapackDescriptor> descriptors() const;
  /// Source and destination layouts. Throws std::invalid_argument when incomplete or bad.
  std::pair<Layout, Layout> layouts() const;
  RankMap ranks(Index source_processors) const;
};

}  // namespace redist::mpi::cli
