// Would a kernel single-copy mechanism beat redist's two-copy exchange on the machine it runs on?
//
// Across ranks of one node redist copies each moved byte twice: packed into the sender's segment
// of a shared window, unpacked out of it (redistribute/shared_memory_exchange.hpp). Linux's
// cross-memory attach (CMA, process_vm_readv, what Open MPI's "cma" single-copy mechanism uses)
// copies once, straight from the sender's pages, but the kernel pins pages and walks one iovec
// per piece. Each iteration here gathers 64 MiB in pieces of the given size (every other piece of
// a 128 MiB source) three ways, on the same pieces: one memcpy per piece (the floor's one copy),
// two memcpys per piece (pack + unpack), and process_vm_readv from this process's own pages (the
// same kernel path as from another rank's), IOV_MAX pieces per call. It reports each one's GB/s
// and cma_vs_two_copies = two-copy time / CMA time (> 1: CMA is faster).
#include <benchmark/benchmark.h>
#include <sys/uio.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace {

constexpr std::size_t kGathered = std::size_t{64} << 20;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void gather_by_memcpy(const std::byte* source, std::byte* out, std::size_t piece) {
  for (std::size_t p = 0; p < kGathered / piece; ++p) std::memcpy(out + p * piece, source + 2 * p * piece, piece);
}

void gather_by_cma(const std::byte* source, std::byte* out, std::size_t piece, std::vector<iovec>& remote) {
  const std::size_t pieces = kGathered / piece;
  for (std::size_t p = 0; p < pieces;) {
    std::size_t k = 0;
    for (; k < remote.size() && p < pieces; ++k, ++p) {
      remote[k] = {const_cast<std::byte*>(source + 2 * p * piece), piece};
    }
    iovec local{out + (p - k) * piece, k * piece};
    if (process_vm_readv(getpid(), &local, 1, remote.data(), k, 0) != static_cast<ssize_t>(k * piece)) {
      throw std::runtime_error("process_vm_readv refused: no cross-memory attach here");
    }
  }
}

void BM_SingleCopy(benchmark::State& state) {
  const auto piece = static_cast<std::size_t>(state.range(0));
  std::vector<std::byte> source(2 * kGathered, std::byte{1}), staging(kGathered), out(kGathered);
  std::vector<iovec> remote(IOV_MAX);
  double one_copy = 0, two_copies = 0, cma = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    gather_by_memcpy(source.data(), out.data(), piece);
    one_copy += seconds_since(start);
    start = std::chrono::steady_clock::now();
    gather_by_memcpy(source.data(), staging.data(), piece);  // pack
    std::memcpy(out.data(), staging.data(), kGathered);      // unpack (contiguous here: the cheaper case)
    two_copies += seconds_since(start);
    start = std::chrono::steady_clock::now();
    gather_by_cma(source.data(), out.data(), piece, remote);
    const double t = seconds_since(start);
    cma += t;
    state.SetIterationTime(t);
    benchmark::DoNotOptimize(out.data());
  }
  const auto gb = static_cast<double>(state.iterations()) * static_cast<double>(kGathered) / 1e9;
  state.counters["memcpy_GBps"] = gb / one_copy;
  state.counters["two_copies_GBps"] = gb / two_copies;
  state.counters["cma_GBps"] = gb / cma;
  state.counters["cma_vs_two_copies"] = two_copies / cma;
}

BENCHMARK(BM_SingleCopy)->RangeMultiplier(8)->Range(64, 1 << 21)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
