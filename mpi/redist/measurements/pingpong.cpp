#include "redist/measurements/pingpong.hpp"

#include <mpi.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

namespace redist::measurements {
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

namespace {

// Ping-pongs 8 bytes with `partner` until `end` on the node's clock, the leading side deciding when
// to stop: the leader's round trips (none on the other side).
std::vector<double> round_trips_until(double end, int partner, bool leads) {
  std::vector<double> round_trips;
  char message[8] = {};
  for (int go = 1; go != 0;) {
    if (leads) {
      go = MPI_Wtime() < end ? 1 : 0;
      message[0] = static_cast<char>(go);
      const double t0 = MPI_Wtime();
      MPI_Send(message, 8, MPI_BYTE, partner, 9, MPI_COMM_WORLD);
      MPI_Recv(message, 8, MPI_BYTE, partner, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (go != 0) round_trips.push_back(MPI_Wtime() - t0);
    } else {
      MPI_Recv(message, 8, MPI_BYTE, partner, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(message, 8, MPI_BYTE, partner, 9, MPI_COMM_WORLD);
      go = message[0];
    }
  }
  return round_trips;
}

// When the ranks start measuring, on the node's clock they share: rank 0's, after a barrier.
double common_start() {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  MPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return start;
}

// Rank 0 prints the median of its round trips; `mode` names the run in the error of having none.
int report_median_round_trip(std::vector<double>& round_trips, const PingPongOptions& o, const char* mode) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return 0;
  if (round_trips.empty()) throw std::runtime_error(std::string("pingpong ") + mode + ": no round trip within --seconds-per-size");
  std::nth_element(round_trips.begin(), round_trips.begin() + static_cast<std::ptrdiff_t>(round_trips.size() / 2),
                   round_trips.end());
  const double median = round_trips[round_trips.size() / 2];
  if (o.json) {
    std::cout << nlohmann::json{{"round_trip", median}}.dump() << std::endl;
  } else {
    std::cout << "median round trip " << median << " s over " << round_trips.size() << "\n";
  }
  return 0;
}

}  // namespace

int run_busy_pingpong(const PingPongOptions& o) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks < 3) throw std::invalid_argument("pingpong --busy needs 3 ranks, mpirun started " + std::to_string(ranks));
  const double end = common_start() + o.seconds_per_size;
  std::vector<double> round_trips;
  if (rank >= 2) {
    volatile double sink = 0;
    while (MPI_Wtime() < end + 0.05) sink = sink + 1;  // computes past the last round trip, no MPI call
  } else {
    round_trips = round_trips_until(end, 1 - rank, rank == 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return report_median_round_trip(round_trips, o, "--busy");
}

int run_shared_core_pingpong(const PingPongOptions& o) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const Index cores = o.shared_core;
  if (ranks <= cores) {
    throw std::invalid_argument("pingpong --shared-core " + std::to_string(cores) + " needs more ranks than that, mpirun started " +
                                std::to_string(ranks));
  }
  const double end = common_start() + o.seconds_per_size;
  std::vector<double> round_trips;
  const bool leads = rank < cores && rank + cores < ranks, follows = rank >= cores && rank < 2 * cores;
  if (leads || follows) {  // the others go straight to the barrier and wait there
    round_trips = round_trips_until(end, leads ? rank + static_cast<int>(cores) : rank - static_cast<int>(cores), leads);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return report_median_round_trip(round_trips, o, "--shared-core");
}

}  // namespace redist::measurements
