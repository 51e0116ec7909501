// The two-level layout's index maps (class and compression tables, layout/compressed_index.hpp)
// against the period table TwoLevelLayout used before them: per processor, the offsets of its
// elements within one period P·x / gcd(s, P·x) of the owner pattern. Both answer the same queries;
// the table after the Google Benchmark lines gives the speed-up of the class/compression tables,
// measured in the same run (best CPU time over the repetitions).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "best_time_reporter.hpp"
#include "period_table.hpp"
#include "redist/layout/two_level.hpp"

namespace {

using redist::Index;

struct Mapping {
  Index stride, offset, block, procs;
};
constexpr Index kSize = 1000000;
constexpr int kQueries = 4096;
// Fig. 2's mapping, Fig. 9's P = 16 with s = 12 (also with pseudo-active elements), a larger
// block, and a long period (N_c = 97).
const std::vector<Mapping> kMappings = {{3, 1, 5, 4}, {12, 0, 7, 16}, {12, 100, 7, 16}, {24, 5, 12, 16}, {97, 3, 64, 32}};
const char* const kOps[] = {"set-up", "local_index", "global_index"};
const char* const kKinds[] = {"period-table", "class-tables"};

std::string name(int op, int kind, std::size_t mapping) {
  return std::string(kOps[op]) + "/" + kKinds[kind] + "/" + std::to_string(mapping);
}

template <class Layout>
Layout make(const Mapping& m) {
  return Layout(kSize, m.stride, m.offset, m.block, m.procs);
}

template <class Layout>
void set_up(benchmark::State& state, const Mapping& m) {
  for (auto _ : state) {
    const Layout layout = make<Layout>(m);
    benchmark::DoNotOptimize(&layout);
  }
}

template <class Layout>
void local_index(benchmark::State& state, const Mapping& m) {
  const Layout layout = make<Layout>(m);
  std::mt19937_64 rng(1);
  std::vector<Index> globals(kQueries);
  for (Index& g : globals) g = std::uniform_int_distribution<Index>(0, kSize - 1)(rng);
  Index sum = 0;
  for (auto _ : state) {
    for (Index g : globals) sum += layout.local_index(g);
    benchmark::DoNotOptimize(sum);
  }
}

template <class Layout>
void global_index(benchmark::State& state, const Mapping& m) {
  const Layout layout = make<Layout>(m);
  const redist::TwoLevelLayout reference = make<redist::TwoLevelLayout>(m);
  std::mt19937_64 rng(2);
  std::vector<std::pair<Index, Index>> queries(kQueries);
  for (auto& [p, local] : queries) {
    const Index g = std::uniform_int_distribution<Index>(0, kSize - 1)(rng);
    p = reference.owner(g);
    local = reference.local_index(g);
  }
  Index sum = 0;
  for (auto _ : state) {
    for (const auto& [p, local] : queries) sum += layout.global_index(p, local);
    benchmark::DoNotOptimize(sum);
  }
}

template <class Layout>
void register_kind(int kind, std::size_t index) {
  const Mapping m = kMappings[index];
  const auto add = [&](int op, void (*run)(benchmark::State&, const Mapping&)) {
    benchmark::RegisterBenchmark(name(op, kind, index).c_str(), [run, m](benchmark::State& s) { run(s, m); })
        ->MinTime(0.1)
        ->Repetitions(3);
  };
  add(0, set_up<Layout>);
  add(1, local_index<Layout>);
  add(2, global_index<Layout>);
}

void print_table(const redist::bench::BestTimeReporter& reporter) {
  std::printf("\nTwo-level index maps, N = %lld: CPU ns per query (per set-up), best of the repetitions\n\n",
              static_cast<long long>(kSize));
  std::printf("| s | o | x | P | operation | period table | class/compression tables | speed-up |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (std::size_t index = 0; index < kMappings.size(); ++index) {
    const Mapping& m = kMappings[index];
    for (int op = 0; op < 3; ++op) {
      const double per = op == 0 ? 1e9 : 1e9 / kQueries;
      const double before = reporter.best(name(op, 0, index)) * per;
      const double after = reporter.best(name(op, 1, index)) * per;
      if (before == 0 || after == 0) continue;
      std::printf("| %lld | %lld | %lld | %lld | %s | %.1f | %.1f | %.2f |\n", static_cast<long long>(m.stride),
                  static_cast<long long>(m.offset), static_cast<long long>(m.block), static_cast<long long>(m.procs),
                  kOps[op], before, after, before / after);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (std::size_t index = 0; index < kMappings.size(); ++index) {
    register_kind<redist::bench::PeriodTable>(0, index);
    register_kind<redist::TwoLevelLayout>(1, index);
  }
  return redist::bench::run_with_table(argc, argv, print_table);
}
