// What the MPI benchmarks share: a time as the slowest rank saw it, a flag true on every rank, the
// median of a list of ratios, and local data that says where each element belongs.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "redist/layout/layout.hpp"

namespace redist::bench {

/// The largest of the ranks' `seconds` (the time a collective operation took).
inline double slowest(double seconds) {
  double most = 0;
  MPI_Allreduce(&seconds, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

/// True when `mine` is true on every rank.
inline bool everywhere(bool mine) {
  int local = mine, all = 0;
  MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

/// The median of `values` (0 for none).
inline double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// Processor p's local elements of `layout`, each its global index (none when the rank plays no p).
inline std::vector<double> numbered(const Layout& layout, std::optional<Index> p) {
  std::vector<double> out(p ? static_cast<std::size_t>(layout.local_size(*p)) : 0);
  for (std::size_t l = 0; l < out.size(); ++l) out[l] = static_cast<double>(layout.global_index(*p, static_cast<Index>(l)));
  return out;
}

}  // namespace redist::bench
