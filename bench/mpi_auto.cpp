// `auto` on real MPI (issue 18 item 3). For seeded random 1-D layout pairs, every candidate
// (indexing × schedule × relabelling, redist/predict/prediction.hpp) is timed as one redistribute()
// call, best of --repeat, its result checked element by element; then the candidate `auto` picks on
// the machine model is looked up among them: within 10% of the measured best, and never the worst?
// Last, at --big-mib (64 MiB), what choosing costs (choose(), every rank predicting) against the
// redistribution it chose.
//   redist calibrate --out machine.xml        # writes machine.model.json too
//   mpirun -np 4 bench_mpi_auto --model machine.model.json [--pairs 30] [--repeat 3] [--mib 4] [--big-mib 64]
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mpi_timing.hpp"
#include "redist/core/splitmix.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/predict/prediction.hpp"

namespace {

using redist::Index;
using redist::bench::everywhere;
using redist::bench::median_of;
using redist::bench::numbered;
using redist::bench::slowest;

struct Settings {
  std::string model;
  int pairs = 30, repeat = 3;
  Index mib = 4, big_mib = 64;
};

struct Pair {
  Index P, r, Q, s, N;
};

// Every rank draws the same pairs: P or Q is the number of ranks, blocks half small, half large.
Pair random_pair(std::uint64_t seed, int ranks, Index elements) {
  const auto draw = [&](std::uint64_t k, Index n) { return static_cast<Index>(redist::splitmix64(seed * 16 + k) % static_cast<std::uint64_t>(n)); };
  const auto block = [&](std::uint64_t k) { return draw(k, 2) ? 1 + draw(k + 1, 8) : 9 + draw(k + 1, 392); };
  const Index other = 1 + draw(0, ranks);
  const bool sources_all = draw(1, 2) == 0;
  return {sources_all ? ranks : other, block(2), sources_all ? other : ranks, block(4), elements - draw(6, 1000)};
}

// Best of `repeat` calls of redistribute() with `options` (the slowest rank's time), and whether
// every call left every element where it belongs.
std::pair<double, bool> timed(const redist::Layout& source, const redist::Layout& dest, const redist::mpi::Options& options,
                              int repeat, int me) {
  const redist::mpi::Options placed = redist::mpi::choose(MPI_COMM_WORLD, source, dest, options);  // relabelled ranks
  const std::vector<double> a = numbered(source, placed.ranks.source_of(me, source.processors()));
  const std::vector<double> want = numbered(dest, placed.ranks.dest_of(me, dest.processors()));
  std::vector<double> b(want.size());
  double best = 1e300;
  bool right = true;
  for (int k = 0; k < repeat; ++k) {
    std::fill(b.begin(), b.end(), -1.0);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    redist::mpi::redistribute<double>(MPI_COMM_WORLD, source, dest, a, b, placed);
    best = std::min(best, slowest(MPI_Wtime() - start));
    right = right && b == want;
  }
  return {best, everywhere(right)};
}

std::string label(const redist::mpi::Options& o) { return o.indexing + "/" + o.schedule + "/" + o.relabel; }

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--model") s.model = argv[i + 1];
    if (flag == "--pairs") s.pairs = std::stoi(argv[i + 1]);
    if (flag == "--repeat") s.repeat = std::stoi(argv[i + 1]);
    if (flag == "--mib") s.mib = std::stoll(argv[i + 1]);
    if (flag == "--big-mib") s.big_mib = std::stoll(argv[i + 1]);
  }
  if (s.model.empty()) {
    if (rank == 0) std::fprintf(stderr, "bench_mpi_auto: --model FILE is required (redist calibrate writes one)\n");
    MPI_Finalize();
    return 1;
  }
  const auto model = std::make_shared<const redist::MachineModel>(redist::load_machine_model(s.model));
  if (rank == 0) {
    std::printf("%d ranks, %lld MiB arrays, every candidate timed as one redistribute() call, best of %d\n", ranks,
                static_cast<long long>(s.mib), s.repeat);
    std::printf("| pair | candidates | auto picks | auto s | best | best s | worst s | auto / best |\n|---|---|---|---|---|---|---|---|\n");
  }
  int within = 0, worst = 0;
  bool all_right = true;
  std::vector<double> ratios;
  for (int k = 0; k < s.pairs; ++k) {
    const Pair p = random_pair(static_cast<std::uint64_t>(k) + 1, ranks, s.mib << 17);
    const redist::Layout source = redist::BlockCyclic(p.N, p.r, p.P), dest = redist::BlockCyclic(p.N, p.s, p.Q);
    const auto candidates = redist::candidates(source, dest, redist::RankMap::shared(), {"auto", "auto", "auto"});
    redist::mpi::Options asked{.indexing = "auto", .schedule = "auto", .relabel = "auto"};
    asked.model = model;
    const std::string picked = label(redist::mpi::choose(MPI_COMM_WORLD, source, dest, asked));
    double best = 1e300, slowest_seconds = 0, auto_seconds = 0;
    std::string best_label;
    for (const redist::Candidate& c : candidates) {
      const redist::mpi::Options options{.indexing = c.indexing, .schedule = c.schedule,
                                         .relabel = std::string(redist::relabel_method_names().name_of(c.relabel))};
      const auto [seconds, right] = timed(source, dest, options, s.repeat, rank);
      all_right = all_right && right;
      if (seconds < best) best = seconds, best_label = label(options);
      slowest_seconds = std::max(slowest_seconds, seconds);
      if (label(options) == picked) auto_seconds = seconds;
    }
    within += auto_seconds <= 1.1 * best;
    worst += auto_seconds >= slowest_seconds;
    ratios.push_back(auto_seconds / best);
    if (rank == 0) {
      std::printf("| P=%lld r=%lld Q=%lld s=%lld N=%lld | %zu | %s | %.3e | %s | %.3e | %.3e | %.2f |\n",
                  static_cast<long long>(p.P), static_cast<long long>(p.r), static_cast<long long>(p.Q),
                  static_cast<long long>(p.s), static_cast<long long>(p.N), candidates.size(), picked.c_str(), auto_seconds,
                  best_label.c_str(), best, slowest_seconds, auto_seconds / best);
      std::fflush(stdout);
    }
  }
  if (rank == 0) {
    std::printf("auto within 10%% of the measured best in %d of %d pairs (median auto/best %.2f); the measured worst in %d\n",
                within, s.pairs, median_of(ratios), worst);
  }
  // What choosing costs at a large size, against the redistribution it picked.
  std::vector<double> costs;
  for (int k = 0; k < 3; ++k) {
    const Pair p = random_pair(static_cast<std::uint64_t>(k) + 1000, ranks, s.big_mib << 17);
    const redist::Layout source = redist::BlockCyclic(p.N, p.r, p.P), dest = redist::BlockCyclic(p.N, p.s, p.Q);
    redist::mpi::Options asked{.indexing = "auto", .schedule = "auto", .relabel = "auto"};
    asked.model = model;
    double choosing = 1e300;
    redist::mpi::Options chosen;
    for (int t = 0; t < s.repeat; ++t) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      chosen = redist::mpi::choose(MPI_COMM_WORLD, source, dest, asked);
      choosing = std::min(choosing, slowest(MPI_Wtime() - start));
    }
    const auto [moving, right] = timed(source, dest, chosen, s.repeat, rank);
    all_right = all_right && right;
    costs.push_back(choosing / moving);
    if (rank == 0) {
      std::printf("%lld MiB, P=%lld r=%lld Q=%lld s=%lld: choosing %s took %.3e s, the redistribution %.3e s: %.1f%%\n",
                  static_cast<long long>(s.big_mib), static_cast<long long>(p.P), static_cast<long long>(p.r),
                  static_cast<long long>(p.Q), static_cast<long long>(p.s), label(chosen).c_str(), choosing, moving,
                  100 * choosing / moving);
    }
  }
  if (rank == 0) std::printf("median cost of choosing: %.1f%% of the redistribution\n", 100 * median_of(costs));
  MPI_Finalize();
  return all_right ? 0 : 1;
}
