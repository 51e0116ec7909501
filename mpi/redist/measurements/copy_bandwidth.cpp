#include "redist/measurements/copy_bandwidth.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "redist/measurements/cache_eviction.hpp"

namespace redist::measurements {
namespace {

// From 4 KiB (inside a first-level cache) to 64 MiB (beyond any last-level cache of one node's share).
constexpr std::size_t kSmallest = std::size_t{4} << 10, kLargest = std::size_t{64} << 20;
// Bytes each timed repetition of warm copies moves: enough for a steady clock to resolve it well.
constexpr std::size_t kBytesPerRepetition = std::size_t{64} << 20;
constexpr int kRepetitions = 3;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// This rank's fastest bandwidth for copying `bytes` while ranks below `copying` copy too (every rank
// starts each repetition together); 0 on a rank that only waits.
double bandwidth(std::size_t bytes, int copying, bool cold, std::vector<char>& from, std::vector<char>& to) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::size_t copies = cold ? 1 : std::max<std::size_t>(1, kBytesPerRepetition / bytes);
  double best = 0;
  for (int k = 0; k < kRepetitions; ++k) {
    if (cold) evict_caches();
    if (!cold && rank < copying) std::memcpy(to.data(), from.data(), bytes);  // warm: touched just before
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank >= copying) continue;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t c = 0; c < copies; ++c) {
      std::memcpy(to.data(), from.data(), bytes);
      from[c % bytes] = to[(c * 7) % bytes];  // each copy depends on the last: none is elided
    }
    best = std::max(best, static_cast<double>(bytes * copies) / seconds_since(start));
  }
  return best;
}

}  // namespace

nlohmann::ordered_json measure_copy_bandwidth() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> copying;
  for (int k = 1; k < size; k *= 2) copying.push_back(k);
  copying.push_back(size);
  std::vector<char> from(kLargest, 1), to(kLargest, 2);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const int k : copying) {
    for (std::size_t bytes = kSmallest; bytes <= kLargest; bytes *= 2) {  // the curves' steps: a factor 2
      const double mine[2] = {bandwidth(bytes, k, false, from, to), bandwidth(bytes, k, true, from, to)};
      double sum[2] = {0, 0};
      MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      if (rank == 0) {
        rows.push_back({{"ranks", k}, {"bytes", bytes}, {"warm", sum[0] / k}, {"cold", sum[1] / k}});
      }
    }
  }
  return rank == 0 ? rows : nlohmann::ordered_json::array();
}

}  // namespace redist::measurements
