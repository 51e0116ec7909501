#include "redist/measurements/memory_check.hpp"

#include <mpi.h>

#include <stdexcept>

#include "redist/core/memory_budget.hpp"
#include "redist/mpi/agreement.hpp"

namespace redist::measurements {

std::optional<std::uint64_t> rank_peak_bytes(const Layout& source, const Layout& dest, const RankMap& ranks,
                                             int rank, Index elem_bytes, bool reference) {
  const auto p = ranks.source_of(rank, source.processors());
  const auto q = ranks.dest_of(rank, dest.processors());
  const auto elements = static_cast<std::uint64_t>((p ? source.local_size(*p) : 0) + (q ? dest.local_size(*q) : 0));
  // 8 + elem_bytes x (2 or 3), or nothing beyond 64 bits (--elem-bytes up to 2^63 - 1).
  const std::optional<std::uint64_t> copies = bytes_product(static_cast<std::uint64_t>(elem_bytes), reference ? 3 : 2);
  std::uint64_t per_element = 0;
  if (!copies || __builtin_add_overflow(*copies, std::uint64_t{8}, &per_element)) return std::nullopt;
  return bytes_product(elements, per_element);
}

void agree_on_memory(std::optional<std::uint64_t> mine) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  // Sum over the node's ranks, saturated: an overflow anywhere is "too much" everywhere.
  unsigned long long mine_or_max = mine ? *mine : ~0ULL, total = 0, overflow = mine ? 0 : 1, any_overflow = 0;
  MPI_Allreduce(&mine_or_max, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, node);
  MPI_Allreduce(&overflow, &any_overflow, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, node);
  const double mine_approx = static_cast<double>(mine_or_max);
  double total_approx = 0;  // tells whether the exact sum wrapped around
  MPI_Allreduce(&mine_approx, &total_approx, 1, MPI_DOUBLE, MPI_SUM, node);
  int node_ranks = 0;
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  const bool wrapped = any_overflow != 0 || total_approx >= 1.8e19;  // the sum passed 2^64
  std::string problem;
  try {
    require_memory(wrapped ? std::nullopt : std::optional<std::uint64_t>(total),
                   "this node (" + std::to_string(node_ranks) + " ranks)", "use smaller layouts or elements (--elem-bytes)");
  } catch (const std::invalid_argument& e) {
    problem = e.what();
  }
  mpi::agree_on_problems(MPI_COMM_WORLD, problem);
}

}  // namespace redist::measurements
