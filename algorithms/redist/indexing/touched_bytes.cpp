#include "redist/indexing/touched_bytes.hpp"

#include <algorithm>

namespace redist {
namespace {

// Adds `share` of each grid process's local elements of `m` to its rank's `elements`.
void add_local_elements(const StoredMatrix& m, double share, std::vector<double>& elements) {
  const Index grid_cols = m.cols.procs();
  for (std::size_t process = 0; process < m.grid_ranks.size(); ++process) {
    const auto at = static_cast<std::size_t>(m.grid_ranks[process]);
    if (at >= elements.size()) continue;
    const auto p = static_cast<Index>(process);
    elements[at] += static_cast<double>(m.rows.local_size(p / grid_cols)) *
                    static_cast<double>(m.cols.local_size(p % grid_cols)) * share;
  }
}

// The local elements counted twice (the arrays, and buffers as large), in bytes.
std::vector<double> with_buffers(std::vector<double> elements, Index elem_bytes) {
  for (double& e : elements) e *= 2 * static_cast<double>(elem_bytes);
  return elements;
}

}  // namespace

std::vector<double> touched_bytes(const Layout& source, const Layout& dest, const RankMap& placed, Index ranks,
                                  Index elem_bytes) {
  std::vector<double> elements(static_cast<std::size_t>(ranks), 0.0);
  const auto add = [&elements](Rank rank, Index local) {
    const auto at = static_cast<std::size_t>(rank);
    if (at < elements.size()) elements[at] += static_cast<double>(local);
  };
  // Only the processors on the ranks asked for: a layout may name more than any run holds.
  const Index sources = std::clamp<Index>(ranks - placed.source_first, 0, source.processors());
  const Index dests =
      placed.is_relabelled() ? dest.processors() : std::clamp<Index>(ranks - placed.dest_first, 0, dest.processors());
  for (Index p = 0; p < sources; ++p) add(placed.source_rank(p), source.local_size(p));
  for (Index q = 0; q < dests; ++q) add(placed.dest_rank(q), dest.local_size(q));
  return with_buffers(std::move(elements), elem_bytes);
}

std::vector<double> touched_bytes(const SubmatrixCopy& copy, Index ranks, Index elem_bytes) {
  const double moved = static_cast<double>(copy.rows) * static_cast<double>(copy.cols);
  const auto share = [moved](const StoredMatrix& m) {
    const double whole = static_cast<double>(m.rows.size()) * static_cast<double>(m.cols.size());
    return whole > 0 ? moved / whole : 0.0;
  };
  std::vector<double> elements(static_cast<std::size_t>(ranks), 0.0);
  add_local_elements(copy.from, share(copy.from), elements);
  add_local_elements(copy.to, share(copy.to), elements);
  return with_buffers(std::move(elements), elem_bytes);
}

}  // namespace redist
