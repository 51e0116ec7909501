#include "redist/mpi/agreement.hpp"

#include <climits>
#include <stdexcept>
#include <vector>

namespace redist::mpi {

void agree_on_input(MPI_Comm comm, std::uint64_t digest, const std::string& problem, const std::string& what) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // Max of the digest and of its complement: equal digests everywhere iff both maxima are ours.
  unsigned long long mine[2] = {digest, ~digest};
  unsigned long long most[2] = {0, 0};
  MPI_Allreduce(mine, most, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  if (most[0] != mine[0] || most[1] != mine[1]) {
    throw std::invalid_argument("the ranks were given different " + what + " (rank " + std::to_string(rank) +
                                " has its own; every rank must pass the same)");
  }
  int first_bad = problem.empty() ? INT_MAX : rank;
  int lowest = INT_MAX;
  MPI_Allreduce(&first_bad, &lowest, 1, MPI_INT, MPI_MIN, comm);
  if (lowest == INT_MAX) return;
  int length = static_cast<int>(problem.size());
  MPI_Bcast(&length, 1, MPI_INT, lowest, comm);
  std::vector<char> text(problem.begin(), problem.end());
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, lowest, comm);
  throw std::invalid_argument("rank " + std::to_string(lowest) + ": " + std::string(text.begin(), text.end()));
}

}  // namespace redist::mpi
