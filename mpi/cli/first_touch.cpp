#include "first_touch.hpp"

#include <mpi.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace redist::mpi::cli {
namespace {

constexpr std::size_t kBytes = std::size_t{64} << 20;  // far beyond every cache: the pages, not the lines
constexpr int kRuns = 5;

double touch_seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Mapped, written and unmapped as glibc's malloc and free treat a block above its mmap threshold.
double fresh_write(unsigned char value) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  void* block = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) throw std::runtime_error("first-touch measurement: cannot map 64 MiB");
  std::memset(block, value, kBytes);
  munmap(block, kBytes);
  return touch_seconds(start);
}

double warm_write(std::vector<unsigned char>& block, unsigned char value) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  std::memset(block.data(), value, block.size());
  const double seconds = touch_seconds(start);
  if (block[block.size() / 2] != value) throw std::logic_error("first-touch measurement: the write did not happen");
  return seconds;
}

double mean_over_ranks(double seconds) {
  double sum = 0;
  int ranks = 1;
  MPI_Allreduce(&seconds, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return sum / ranks;
}

}  // namespace

nlohmann::ordered_json measure_first_touch() {
  std::vector<unsigned char> kept(kBytes, 1);  // written once: its pages are the process's
  double fresh = 1e300, warm = 1e300;
  for (int k = 0; k < kRuns; ++k) {
    const auto value = static_cast<unsigned char>(2 + k);
    fresh = std::min(fresh, fresh_write(value));
    warm = std::min(warm, warm_write(kept, value));
  }
  return {{"bytes", kBytes}, {"fresh", mean_over_ranks(fresh)}, {"warm", mean_over_ranks(warm)}};
}

}  // namespace redist::mpi::cli
