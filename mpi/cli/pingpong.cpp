#include "pingpong.hpp"

#include <mpi.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

namespace redist::mpi::cli {
namespace {

std::vector<Index> sizes_between(Index low, Index high) {
  std::vector<Index> sizes;
  for (Index p = 1; p <= high; p *= 2) {
    if (p >= low) sizes.push_back(p);
    if (p >= 2 && p + p / 2 >= low && p + p / 2 <= high) sizes.push_back(p + p / 2);
  }
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

// Fastest one-way time of `bytes` between ranks 0 and 1; rank 0 decides when to stop.
double one_way(Index bytes, double budget, std::vector<char>& buffer, int rank) {
  double best = 1e300;
  const double start = MPI_Wtime();
  for (int k = 0;; ++k) {
    int go = 1;
    if (rank == 0) go = k < 5 || MPI_Wtime() - start < budget ? 1 : 0;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!go) break;
    const int count = static_cast<int>(bytes);
    if (rank == 0) {
      const double t0 = MPI_Wtime();
      MPI_Send(buffer.data(), count, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(buffer.data(), count, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      best = std::min(best, (MPI_Wtime() - t0) / 2);
    } else if (rank == 1) {
      MPI_Recv(buffer.data(), count, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), count, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    }
  }
  return best;
}

}  // namespace

void PingPongOptions::add_to(CLI::App& app) {
  app.add_option("--min-bytes", min_bytes, "smallest message")->check(CLI::Range(Index{1}, Index{1} << 30))->capture_default_str();
  app.add_option("--max-bytes", max_bytes, "largest message")->check(CLI::Range(Index{1}, Index{1} << 30))->capture_default_str();
  app.add_option("--seconds-per-size", seconds_per_size, "measuring time per size")->check(CLI::Range(0.0, 60.0))->capture_default_str();
  app.add_flag("--json", json, "print {\"bytes\":[...],\"seconds\":[...]}");
}

int run_pingpong(const PingPongOptions& o) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks < 2) throw std::invalid_argument("pingpong needs 2 ranks, mpirun started " + std::to_string(ranks));
  if (o.min_bytes > o.max_bytes) throw std::invalid_argument("--min-bytes is above --max-bytes");
  const auto sizes = sizes_between(o.min_bytes, o.max_bytes);
  std::vector<char> buffer(static_cast<std::size_t>(o.max_bytes), 1);
  std::vector<double> seconds;
  for (const Index bytes : sizes) seconds.push_back(one_way(bytes, o.seconds_per_size, buffer, rank));
  if (rank != 0) return 0;
  if (o.json) {
    std::cout << nlohmann::json{{"bytes", sizes}, {"seconds", seconds}}.dump() << std::endl;
  } else {
    for (std::size_t i = 0; i < sizes.size(); ++i) std::cout << sizes[i] << "\t" << seconds[i] << "\n";
  }
  return 0;
}

}  // namespace redist::mpi::cli
