// Paper 003, Fig. 9, on this host: generating a processor's compressed local array by table lookup
// ("ours") against the virtual-block and virtual-cyclic schemes, N_A = 50000, P = 16, o = 0;
// (a) s = 12, x = 1..24 and (b) x = 12, s = 2..24. One iteration generates the arrays of all 16
// processors (the paper times one processor drawn at random); times are CPU µs per generation,
// the minimum over repetitions. After the Google Benchmark lines, a table gives each point's
// speed-up of ours over the better baseline, measured in the same run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "best_time_reporter.hpp"
#include "redist/holes/local_array.hpp"
#include "redist/holes/virtual_block.hpp"
#include "redist/holes/virtual_cyclic.hpp"

namespace {

using redist::Index;
using redist::TwoLevelMapping;
using Generator = void (*)(const TwoLevelMapping&, Index, std::vector<Index>&, redist::Work&);

constexpr Index kSize = 50000;
constexpr Index kProcs = 16;
constexpr int kMethods = 3;
constexpr const char* kMethodNames[kMethods] = {"ours", "v-block", "v-cyclic"};
constexpr Generator kGenerators[kMethods] = {redist::compressed_local_array, redist::virtual_block_local_array,
                                             redist::virtual_cyclic_local_array};

struct Point {
  char sweep;  // 'a' or 'b'
  Index stride;
  Index block;
};

std::vector<Point>& points() {
  static std::vector<Point> all;
  return all;
}

TwoLevelMapping mapping_of(const Point& point) { return {kSize, point.stride, 0, point.block, kProcs}; }

// The three methods must agree (virtual-cyclic as a set) before they are timed.
void check_agreement(const TwoLevelMapping& m) {
  redist::Work work;
  std::vector<Index> ours, other;
  for (Index p = 0; p < m.procs; ++p) {
    redist::compressed_local_array(m, p, ours, work);
    for (int method = 1; method < kMethods; ++method) {
      kGenerators[method](m, p, other, work);
      std::sort(other.begin(), other.end());
      if (other != ours) {
        std::fprintf(stderr, "bench_holes: %s disagrees with ours at s=%lld x=%lld p=%lld\n", kMethodNames[method],
                     static_cast<long long>(m.stride), static_cast<long long>(m.block), static_cast<long long>(p));
        std::exit(1);
      }
    }
  }
}

void generate_all(benchmark::State& state, Generator method, const TwoLevelMapping& m) {
  std::vector<Index> out;  // reused: capacity is kept across generations for every method alike
  redist::Work work;
  for (auto _ : state) {
    for (Index p = 0; p < m.procs; ++p) {
      method(m, p, out, work);
      benchmark::DoNotOptimize(out.data());
    }
    benchmark::ClobberMemory();
  }
  state.counters["elements"] = static_cast<double>(work.count(redist::WorkKind::ElementScanned)) /
                               static_cast<double>(state.iterations() * m.procs);
}

std::string point_name(const Point& point, int method) {
  return std::string("fig9") + point.sweep + "/" + kMethodNames[method] + "/s:" + std::to_string(point.stride) +
         "/x:" + std::to_string(point.block);
}

void register_point(char sweep, Index stride, Index block) {
  points().push_back({sweep, stride, block});
  const std::size_t index = points().size() - 1;
  check_agreement(mapping_of(points()[index]));
  for (int method = 0; method < kMethods; ++method) {
    benchmark::RegisterBenchmark(point_name(points()[index], method).c_str(),
                                 [method, index](benchmark::State& state) {
                                   generate_all(state, kGenerators[method], mapping_of(points()[index]));
                                 })
        ->MinTime(0.1)
        ->Repetitions(3)
        ->Unit(benchmark::kMicrosecond);
  }
}

void print_table(const redist::bench::BestTimeReporter& reporter) {
  std::printf("\nFig. 9 on this host: CPU us per generation (N_A = %lld, P = %lld, o = 0)\n\n",
              static_cast<long long>(kSize), static_cast<long long>(kProcs));
  std::printf("| sweep | s | x | N_c | N_pb^p | gcd(P*x, s) | ours | v-block | v-cyclic | better baseline / ours |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  int missed = 0, measured = 0;
  for (const Point& point : points()) {
    double micros[kMethods];
    for (int method = 0; method < kMethods; ++method) {
      micros[method] = reporter.best(point_name(point, method)) * 1e6 / static_cast<double>(kProcs);
    }
    if (micros[0] == 0) continue;  // filtered out of this run
    const Index classes = point.stride / std::gcd(point.stride, point.block);
    const double ratio = std::min(micros[1], micros[2]) / micros[0];
    ++measured;
    missed += ratio < 2.0 ? 1 : 0;
    std::printf("| %c | %lld | %lld | %lld | %lld | %lld | %.2f | %.2f | %.2f | %.2f%s |\n", point.sweep,
                static_cast<long long>(point.stride), static_cast<long long>(point.block),
                static_cast<long long>(classes), static_cast<long long>(classes / std::gcd(classes, kProcs)),
                static_cast<long long>(std::gcd(kProcs * point.block, point.stride)), micros[0], micros[1], micros[2],
                ratio, ratio < 2.0 ? " (below 2x)" : "");
  }
  std::printf("\nours >= 2x the better baseline at %d of %d points\n", measured - missed, measured);
}

}  // namespace

int main(int argc, char** argv) {
  for (Index x = 1; x <= 24; ++x) register_point('a', 12, x);
  for (Index s = 2; s <= 24; ++s) register_point('b', s, 12);
  return redist::bench::run_with_table(argc, argv, print_table);
}
