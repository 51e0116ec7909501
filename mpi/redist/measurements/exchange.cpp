#include "redist/measurements/exchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace redist::measurements {
namespace {

// One all-to-all of `bytes` per pair; the slowest rank's seconds.
double exchange_once(Index bytes, int rank, int ranks, std::vector<char>& sends, std::vector<char>& receives, int fill) {
  const auto size = static_cast<std::size_t>(bytes);
  std::memset(sends.data(), fill, sends.size());
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  std::vector<MPI_Request> requests;
  requests.reserve(2 * static_cast<std::size_t>(ranks));
  for (int step = 1; step < ranks; ++step) {
    const int from = (rank - step + ranks) % ranks;
    MPI_Irecv(receives.data() + static_cast<std::size_t>(from) * size, static_cast<int>(bytes), MPI_BYTE, from, 11,
              MPI_COMM_WORLD, &requests.emplace_back());
  }
  for (int step = 1; step < ranks; ++step) {
    const int to = (rank + step) % ranks;
    MPI_Isend(sends.data() + static_cast<std::size_t>(to) * size, static_cast<int>(bytes), MPI_BYTE, to, 11,
              MPI_COMM_WORLD, &requests.emplace_back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  double mine = MPI_Wtime() - start, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

}  // namespace

int run_exchange(const ExchangeOptions& o) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks < 2) throw std::invalid_argument("exchange needs 2 ranks or more, mpirun started " + std::to_string(ranks));
  const auto total = static_cast<std::size_t>(o.bytes) * static_cast<std::size_t>(ranks);
  std::vector<char> sends(total), receives(total);
  double best = 1e300;
  for (int k = 0; k < o.repeat; ++k) best = std::min(best, exchange_once(o.bytes, rank, ranks, sends, receives, k + 1));
  if (rank != 0) return 0;
  const double moved = static_cast<double>(o.bytes) * ranks * (ranks - 1);
  if (o.json) {
    std::cout << nlohmann::json{{"ranks", ranks}, {"bytes", o.bytes}, {"seconds", best}, {"bandwidth", moved / best}}.dump()
              << std::endl;
  } else {
    std::cout << ranks << " ranks, " << o.bytes << " bytes per pair: " << best << " s, " << moved / best << " B/s\n";
  }
  return 0;
}

}  // namespace redist::measurements
