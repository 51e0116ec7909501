#include "redist/indexing/touched_bytes.hpp"

#include <optional>

namespace redist {
namespace {

// The local elements of the grid process `rank` plays in `m` (0 where it plays none).
double local_elements(const StoredMatrix& m, Rank rank) {
  const Index process = m.process_of(rank);
  if (process < 0) return 0;
  const Index grid_cols = m.cols.procs();
  return static_cast<double>(m.rows.local_size(process / grid_cols)) *
         static_cast<double>(m.cols.local_size(process % grid_cols));
}

}  // namespace

double touched_bytes(const Layout& source, const Layout& dest, const RankMap& ranks, Rank rank, Index elem_bytes) {
  double elements = 0;
  if (const std::optional<Index> p = ranks.source_of(rank, source.processors())) {
    elements += static_cast<double>(source.local_size(*p));
  }
  if (const std::optional<Index> q = ranks.dest_of(rank, dest.processors())) {
    elements += static_cast<double>(dest.local_size(*q));
  }
  return 2 * elements * static_cast<double>(elem_bytes);
}

double touched_bytes(const SubmatrixCopy& copy, Rank rank, Index elem_bytes) {
  const double moved = static_cast<double>(copy.rows) * static_cast<double>(copy.cols);
  const auto share = [moved](const StoredMatrix& m) {
    const double whole = static_cast<double>(m.rows.size()) * static_cast<double>(m.cols.size());
    return whole > 0 ? moved / whole : 0.0;
  };
  const double elements =
      local_elements(copy.from, rank) * share(copy.from) + local_elements(copy.to, rank) * share(copy.to);
  return 2 * elements * static_cast<double>(elem_bytes);
}

}  // namespace redist
