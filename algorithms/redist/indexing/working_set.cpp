#include "redist/indexing/working_set.hpp"

#include <stdexcept>
#include <string>

#include "redist/core/int_math.hpp"

namespace redist {
namespace {

// Adds to elements[r] what each rank r of the grid of `m` stores of the whole matrix.
void add_stored_elements(const StoredMatrix& m, std::vector<Index>& elements) {
  for (std::size_t process = 0; process < m.grid_ranks.size(); ++process) {
    const auto rank = static_cast<std::size_t>(m.grid_ranks[process]);
    const auto at = static_cast<Index>(process);
    if (rank >= elements.size()) {
      throw std::invalid_argument("working sets: grid rank " + std::to_string(rank) + " of " +
                                  std::to_string(elements.size()) + " ranks");
    }
    elements[rank] += checked_mul(m.rows.local_size(at / m.cols.procs()), m.cols.local_size(at % m.cols.procs()),
                                  "a local matrix's elements");
  }
}

}  // namespace

Index redistribution_working_set(const Layout& source, const Layout& dest, const RankMap& ranks, Rank rank,
                                 Index elem_bytes) {
  Index elements = 0;
  if (const auto p = ranks.source_of(rank, source.processors())) elements += source.local_size(*p);
  if (const auto q = ranks.dest_of(rank, dest.processors())) elements += dest.local_size(*q);
  return checked_mul(elements, elem_bytes, "a rank's working set in bytes");
}

std::vector<Index> redistribution_working_sets(const Layout& source, const Layout& dest, const RankMap& ranks,
                                               Index elem_bytes) {
  const Index count = ranks.ranks_needed(source.processors(), dest.processors());
  std::vector<Index> elements(static_cast<std::size_t>(count), 0);
  // Each processor once: dest_of of a relabelled map searches its list.
  for (Index p = 0; p < source.processors(); ++p) elements.at(static_cast<std::size_t>(ranks.source_rank(p))) += source.local_size(p);
  for (Index q = 0; q < dest.processors(); ++q) elements.at(static_cast<std::size_t>(ranks.dest_rank(q))) += dest.local_size(q);
  std::vector<Index> bytes;
  bytes.reserve(elements.size());
  for (const Index e : elements) bytes.push_back(checked_mul(e, elem_bytes, "a rank's working set in bytes"));
  return bytes;
}

std::vector<Index> matrix_copy_working_sets(const SubmatrixCopy& copy, Index ranks, Index elem_bytes) {
  if (ranks < 0) throw std::invalid_argument("working sets of " + std::to_string(ranks) + " ranks");
  std::vector<Index> elements(static_cast<std::size_t>(ranks), 0);
  add_stored_elements(copy.from, elements);
  add_stored_elements(copy.to, elements);
  std::vector<Index> bytes;
  bytes.reserve(elements.size());
  for (const Index e : elements) bytes.push_back(checked_mul(e, elem_bytes, "a rank's working set in bytes"));
  return bytes;
}

}  // namespace redist
