#include "redist/mpi/agreement.hpp"

#include <climits>
#include <stdexcept>
#include <vector>

namespace redist::mpi {
namespace {

// The lowest rank for which `mine` holds, or INT_MAX when none does (collective).
int lowest_rank_where(MPI_Comm comm, bool mine) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int candidate = mine ? rank : INT_MAX;
  int lowest = INT_MAX;
  MPI_Allreduce(&candidate, &lowest, 1, MPI_INT, MPI_MIN, comm);
  return lowest;
}

// `text` as held by rank `root`, on every rank (collective).
std::string broadcast_text(MPI_Comm comm, const std::string& text, int root) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, root, comm);
  std::vector<char> buffer(text.begin(), text.end());
  buffer.resize(static_cast<std::size_t>(length));
  MPI_Bcast(buffer.data(), length, MPI_CHAR, root, comm);
  return {buffer.begin(), buffer.end()};
}

}  // namespace

void agree_on_input(MPI_Comm comm, std::uint64_t digest, const std::string& problem, const std::string& what) {
  // One MPI_Allreduce (MPI_MAX) answers both questions: the digests all agree when the highest
  // equals the lowest (the highest of their complements), and the rank at fault is the lowest
  // with a problem. Only a failing call spends more collectives, to name the rank.
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const auto bits = static_cast<long long>(digest);
  const long long mine[3] = {bits, ~bits, problem.empty() ? -1 : static_cast<long long>(INT_MAX - rank)};
  long long all[3] = {0, 0, 0};
  MPI_Allreduce(mine, all, 3, MPI_LONG_LONG, MPI_MAX, comm);
  if (all[0] != ~all[1]) {
    // Rank 0's digest is the reference: the first rank that differs from it is the one at fault.
    unsigned long long reference = digest;
    MPI_Bcast(&reference, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
    const int first_different = lowest_rank_where(comm, reference != digest);
    throw std::invalid_argument("the ranks were given different " + what + " (rank " + std::to_string(first_different) +
                                " differs from rank 0; every rank must pass the same)");
  }
  if (all[2] < 0) return;
  const int lowest = INT_MAX - static_cast<int>(all[2]);
  throw std::invalid_argument("rank " + std::to_string(lowest) + ": " + broadcast_text(comm, problem, lowest));
}

void agree_on_problems(MPI_Comm comm, const std::string& problem) {
  const int lowest = lowest_rank_where(comm, !problem.empty());
  if (lowest == INT_MAX) return;
  throw std::invalid_argument("rank " + std::to_string(lowest) + ": " + broadcast_text(comm, problem, lowest));
}

}  // namespace redist::mpi
