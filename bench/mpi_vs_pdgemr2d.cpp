// redist's best indexing method against ScaLAPACK's pdgemr2d on 2-D block-cyclic layout pairs,
// under mpirun (4, 8 or 16 ranks), each pair a 4096 × 4096 matrix of doubles (128 MiB). An MPI
// program, not a Google Benchmark one: every rank must time the same collective calls. Repetitions
// alternate the two libraries, so that load from elsewhere on the machine hits both alike; each
// time is the fastest repetition of the slowest rank. Both results are checked element by element.
//
//   mpirun -np 4|8|16 bench_mpi_vs_pdgemr2d [--repeat 3] [--rows 4096 --cols 4096] [--json FILE]
//
// The 12 pairs (redist/layout/benchmark_pairs.hpp) are written for 4 ranks; on 8 and 16 the same
// pairs are scaled: each doubling of the rank count doubles the process rows of both grids, then
// the process columns, and so on.
//
// redist keeps its message memory between calls (buffers, and the shared-memory window kept with
// the communicator); pdgemr2d allocates afresh. `cold s` is the best method again with all of it
// released before each call (redist::mpi::release_buffers(comm)), so that it pays for fresh pages
// as pdgemr2d does.
//
// `plan s` is the best method as a kept redist::mpi::Plan executed again and again; `call/plan`
// compares it with a redistribute() call, measured interleaved with it.
//
// With a build configured with -DREDIST_COSTA_DIR, COSTA's transform() runs too, alternating with
// the others, checked the same way (bench/README.md); the header line says which references ran.
//
// `1-copy s` is the best method with every rank's source in one redist::mpi::SharedArray (an MPI
// shared-memory window): receivers copy straight out of the senders' storage, once per byte, the
// messages whose pieces are long enough (`copied once`: the share of the moved bytes).
//
// Also reports each time against a floor: the bytes the busiest rank sends to other ranks divided
// by the copy bandwidth each rank measures with all ranks copying at once (one copy of the data
// that must move; packing, MPI's transfer and unpacking are three). The bandwidth is measured with
// each pair, once per repetition between the libraries' runs (the best of them), as the machine's
// memory bandwidth moves by up to 2x from one minute to the next on a shared VM. `2-copy` is
// redist/floor as it would be if an exchange that copies each byte twice moved every byte at the
// floor's speed: a rank packs what it sends and writes its whole destination (received, unpacked, and
// kept, copied once), so the busiest rank's sent + destination bytes over the busiest sender's bytes
// (2.33 where a quarter of the data stays). redist/floor over it is what the copy kernels and the
// synchronisation add: near 1 where memory bandwidth limits every copy (below 1 where ranks copy
// while others wait, or from cache), more where the machine copies fast enough for the pieces'
// bookkeeping to show (bench/README.md).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "costa_reference.hpp"
#include "mpi_timing.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/layout/benchmark_pairs.hpp"
#include "redist/mpi/pdgemr2d.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/mpi/redistribute.hpp"
#include "redist/mpi/shared_array.hpp"

namespace {

using redist::Index;
using redist::bench::everywhere;
using redist::bench::median_of;
using redist::bench::slowest;
using redist::mpi::ScalapackDescriptor;

std::string grids(const redist::DescriptorPair& p) {
  return std::to_string(p.from.grid_rows) + "x" + std::to_string(p.from.grid_cols) + " -> " +
         std::to_string(p.to.grid_rows) + "x" + std::to_string(p.to.grid_cols);
}

// Seconds for every rank to copy its 64 MiB four times over, from the first rank's start to the
// last rank's end (one node: one clock). Ranks that outnumber the cores then share them as they
// do in a redistribution; a rank's own short stretch could run alone in its time slices.
class CopyTimer {
 public:
  static constexpr std::size_t kBytes = std::size_t{64} << 20;
  static constexpr int kCopies = 4;
  CopyTimer() : from_(kBytes, 1), to_(kBytes, 0) {}
  double seconds() {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int c = 0; c < kCopies; ++c) std::memcpy(to_.data(), from_.data(), kBytes);
    double end = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, &start, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &end, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return end - start;
  }
  static double bandwidth(double seconds) { return static_cast<double>(kCopies) * static_cast<double>(kBytes) / seconds; }

 private:
  std::vector<char> from_, to_;
};

// Global row-major index of every local element, column-major local storage.
std::vector<double> global_values(const ScalapackDescriptor& d, int rank) {
  if (rank >= d.grid_rows * d.grid_cols) return {};
  const redist::BlockCyclic rows(d.rows, d.row_block, d.grid_rows, d.first_row);
  const redist::BlockCyclic cols(d.cols, d.col_block, d.grid_cols, d.first_col);
  const Index pr = rank / d.grid_cols, pc = rank % d.grid_cols;
  std::vector<double> out;
  for (Index j = 0; j < cols.local_size(pc); ++j) {
    for (Index i = 0; i < rows.local_size(pr); ++i) {
      out.push_back(static_cast<double>(rows.global_index(pr, i) * d.cols + cols.global_index(pc, j)));
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int repeat = 3;
  Index rows = 4096, cols = 4096;
  std::string json_path;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--repeat") repeat = std::stoi(argv[i + 1]);
    if (flag == "--rows") rows = std::stoll(argv[i + 1]);
    if (flag == "--cols") cols = std::stoll(argv[i + 1]);
    if (flag == "--json") json_path = argv[i + 1];
  }
  const std::vector<redist::DescriptorPair> pairs = redist::benchmark_pairs(ranks, rows, cols);
  if (pairs.empty()) {
    if (rank == 0) std::fprintf(stderr, "bench_mpi_vs_pdgemr2d: run with mpirun -np 4, 8 or 16 (4 times a power of two)\n");
    MPI_Finalize();
    return 1;
  }
  CopyTimer copy_timer;
  if (rank == 0) {
    std::printf("%lld x %lld doubles (%.0f MiB), %d ranks; the floor's copy bandwidth per rank (all copying) is measured\n"
                "with each pair, interleaved with its repetitions\n",
                static_cast<long long>(rows), static_cast<long long>(cols),
                static_cast<double>(rows * cols * 8) / (1 << 20), ranks);
    std::printf("references: pdgemr2d%s\n", redist::bench::costa_available() ? ", COSTA" : " (COSTA: not in this build)");
    std::printf("| pair | best method | redist s | cold s | pdgemr2d s | speedup | cold speedup | plan s | call/plan | COSTA s | COSTA/redist | moved MiB | floor s | redist/floor | 2-copy | pdgemr2d/floor | 1-copy s | copied once | 1-copy/floor | pdgemr2d/1-copy | identical |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  }
  nlohmann::json report = nlohmann::json::array();
  std::vector<double> speedups, cold_speedups, floor_ratios, two_copy_ratios, plan_gains, once_floor_ratios, once_speedups, bandwidths;
  bool all_identical = true;
  for (const redist::DescriptorPair& pair : pairs) {
    const ScalapackDescriptor& from = pair.from;
    const ScalapackDescriptor& to = pair.to;
    const redist::Layout source = redist::mpi::scalapack_layout(from), dest = redist::mpi::scalapack_layout(to);
    const std::vector<double> a = global_values(from, rank), expected = global_values(to, rank);
    std::vector<double> b(expected.size()), c(expected.size());
    std::vector<std::string> methods;  // every method that indexes the pair dimension by dimension
    for (const redist::IndexingMethod& method : redist::indexing_methods()) {
      if (method.per_dimension && redist::method_takes(method, source, dest)) methods.emplace_back(method.name);
    }
    std::vector<double> redist_best(methods.size(), 1e300);
    double scalapack_best = 1e300, costa_best = 1e300, copy_best = 1e300;
    Index sent = 0;
    bool identical = true;
    redist::mpi::Pdgemr2d scalapack(from, 0, to, 0);
    for (int k = 0; k < repeat; ++k) {
      for (std::size_t m = 0; m < methods.size(); ++m) {
        std::fill(b.begin(), b.end(), -1.0);
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        const auto r = redist::mpi::redistribute<double>(MPI_COMM_WORLD, source, dest, a, b,
                                                         {8, methods[m], "async", redist::RankMap::shared()});
        redist_best[m] = std::min(redist_best[m], slowest(MPI_Wtime() - start));
        sent = r.bytes_sent;
        identical = identical && b == expected;
      }
      copy_best = std::min(copy_best, copy_timer.seconds());  // the floor's bandwidth, in the same conditions
      std::fill(c.begin(), c.end(), -1.0);
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      scalapack.run(a.empty() ? nullptr : a.data(), c.empty() ? nullptr : c.data());
      scalapack_best = std::min(scalapack_best, slowest(MPI_Wtime() - start));
      identical = identical && c == expected;
      if (redist::bench::costa_available()) {
        std::fill(c.begin(), c.end(), -1.0);
        MPI_Barrier(MPI_COMM_WORLD);
        costa_best = std::min(costa_best, slowest(redist::bench::costa_redistribute(from, a.data(), to, c.data(), MPI_COMM_WORLD)));
        identical = identical && c == expected;
      }
    }
    Index most_sent = 0, total_sent = 0, most_copied = 0;
    MPI_Allreduce(&sent, &most_sent, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&sent, &total_sent, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    // What a two-copy exchange copies on a rank: the bytes it sends, then its whole destination
    // (received and kept alike).
    const Index copied = sent + static_cast<Index>(b.size() * sizeof(double));
    MPI_Allreduce(&copied, &most_copied, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    const auto best = static_cast<std::size_t>(std::min_element(redist_best.begin(), redist_best.end()) - redist_best.begin());
    double cold_best = 1e300;
    for (int k = 0; k < repeat; ++k) {
      redist::mpi::release_buffers(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      redist::mpi::redistribute<double>(MPI_COMM_WORLD, source, dest, a, b, {8, methods[best], "async", redist::RankMap::shared()});
      cold_best = std::min(cold_best, slowest(MPI_Wtime() - start));
      identical = identical && b == expected;
    }
    // The best method again with the sources in one SharedArray: copied once (checked below).
    redist::mpi::SharedArray<double> shared_a(MPI_COMM_WORLD, static_cast<Index>(a.size()));
    std::copy(a.begin(), a.end(), shared_a.span().begin());
    double once_best = 1e300;
    Index copied_once = 0;
    for (int k = 0; k < repeat; ++k) {
      std::fill(b.begin(), b.end(), -1.0);
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      const auto r = redist::mpi::redistribute<double>(MPI_COMM_WORLD, source, dest, shared_a.span(), std::span<double>(b),
                                                       {8, methods[best], "async", redist::RankMap::shared()});
      once_best = std::min(once_best, slowest(MPI_Wtime() - start));
      copied_once = r.bytes_copied_once;
      identical = identical && b == expected;
    }
    Index all_copied_once = 0;
    MPI_Allreduce(&copied_once, &all_copied_once, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    // A plan kept across calls against a call per redistribution, interleaved, warm.
    redist::mpi::Plan plan(MPI_COMM_WORLD, source, dest, {8, methods[best], "async", redist::RankMap::shared()});
    double call_best = 1e300, plan_best = 1e300;
    for (int k = 0; k < repeat; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      double start = MPI_Wtime();
      redist::mpi::redistribute<double>(MPI_COMM_WORLD, source, dest, a, b, {8, methods[best], "async", redist::RankMap::shared()});
      call_best = std::min(call_best, slowest(MPI_Wtime() - start));
      identical = identical && b == expected;
      std::fill(b.begin(), b.end(), -1.0);
      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
      plan.execute<double>(a, b);
      plan_best = std::min(plan_best, slowest(MPI_Wtime() - start));
      identical = identical && b == expected;
    }
    plan_gains.push_back(call_best / plan_best);
    identical = everywhere(identical);
    all_identical = all_identical && identical;
    const double bandwidth = CopyTimer::bandwidth(copy_best);
    bandwidths.push_back(bandwidth);
    const double floor = static_cast<double>(most_sent) / bandwidth;
    const double speedup = scalapack_best / redist_best[best];
    speedups.push_back(speedup);
    floor_ratios.push_back(redist_best[best] / floor);
    const double two_copy = static_cast<double>(most_copied) / static_cast<double>(std::max<Index>(most_sent, 1));
    two_copy_ratios.push_back(redist_best[best] / floor / two_copy);
    cold_speedups.push_back(scalapack_best / cold_best);
    once_floor_ratios.push_back(once_best / floor);
    once_speedups.push_back(scalapack_best / once_best);
    if (rank == 0) {
      const std::string scaled = ranks == 4 ? "" : " as " + grids(pair);
      const bool costa_ran = redist::bench::costa_available();
      char costa_s[32] = "-", costa_ratio[32] = "-";
      if (costa_ran) {
        std::snprintf(costa_s, sizeof costa_s, "%.4f", costa_best);
        std::snprintf(costa_ratio, sizeof costa_ratio, "%.2f", costa_best / redist_best[best]);
      }
      std::printf("| %s%s | %s | %.4f | %.4f | %.4f | %.2f | %.2f | %.4f | %.2f | %s | %s | %.1f | %.4f | %.2f | %.2f | %.2f | %.4f | %.0f%% | %.2f | %.2f | %s |\n",
                  pair.name.c_str(), scaled.c_str(), methods[best].c_str(), redist_best[best], cold_best, scalapack_best, speedup,
                  scalapack_best / cold_best, plan_best, call_best / plan_best, costa_s, costa_ratio, static_cast<double>(total_sent) / (1 << 20), floor,
                  redist_best[best] / floor, two_copy, scalapack_best / floor, once_best, 100.0 * static_cast<double>(all_copied_once) / static_cast<double>(std::max<Index>(total_sent, 1)),
                  once_best / floor, scalapack_best / once_best, identical ? "yes" : "NO");
      std::fflush(stdout);
    }
    nlohmann::json entry = {{"pair", pair.name}, {"copy_bandwidth", bandwidth}, {"best_method", methods[best]}, {"redist_seconds", redist_best[best]},
                            {"cold_seconds", cold_best}, {"pdgemr2d_seconds", scalapack_best}, {"speedup", speedup}, {"moved_bytes", total_sent},
                            {"busiest_rank_bytes", most_sent}, {"floor_seconds", floor}, {"two_copy_ratio", two_copy}, {"identical", identical}};
    for (const auto& [key, d] : {std::pair{"src", &from}, std::pair{"dst", &to}}) {  // the layouts, as redist's JSON writes them
      entry[key] = {{"grid", {d->grid_rows, d->grid_cols}}, {"block", {d->row_block, d->col_block}},
                    {"first", {d->first_row, d->first_col}}};
    }
    entry["rows"] = rows;
    entry["cols"] = cols;
    entry["plan_execute_seconds"] = plan_best;
    entry["one_copy_seconds"] = once_best;
    entry["bytes_copied_once"] = all_copied_once;
    entry["call_seconds"] = call_best;
    if (redist::bench::costa_available()) entry["costa_seconds"] = costa_best;
    for (std::size_t m = 0; m < methods.size(); ++m) entry["methods"][methods[m]] = redist_best[m];
    report.push_back(entry);
  }
  const double median = median_of(speedups), cold_median = median_of(cold_speedups);
  const double floor_median = median_of(floor_ratios), once_floor_median = median_of(once_floor_ratios);
  if (rank == 0) {
    std::printf("median speedup of redist's best method over pdgemr2d: %.2f (%zu pairs); with cold buffers: %.2f\n",
                median, speedups.size(), cold_median);
    std::printf("median redist/floor: %.2f (copy bandwidth per rank, all copying: %.2f-%.2f GB/s over the pairs)\n", floor_median,
                *std::min_element(bandwidths.begin(), bandwidths.end()) / 1e9, *std::max_element(bandwidths.begin(), bandwidths.end()) / 1e9);
    std::printf("median redist/floor over 2-copy: %.2f (1: every byte copied at the floor's speed)\n",
                median_of(two_copy_ratios));
    std::printf("sources in a SharedArray (one copy): median 1-copy/floor %.2f, median pdgemr2d/1-copy %.2f\n",
                once_floor_median, median_of(once_speedups));
    std::printf("median redistribute() call / kept plan's execute(): %.2f\n", median_of(plan_gains));
    if (!json_path.empty()) {
      std::ofstream(json_path) << nlohmann::json{{"median_copy_bandwidth", median_of(bandwidths)}, {"median_speedup", median},
                                                  {"cold_median_speedup", cold_median}, {"median_floor_ratio", floor_median}, {"median_over_two_copy", median_of(two_copy_ratios)},
                                                  {"median_one_copy_floor_ratio", once_floor_median},
                                                  {"median_one_copy_speedup", median_of(once_speedups)},
                                                  {"median_call_over_plan", median_of(plan_gains)},
                                                  {"ranks", ranks}, {"pairs", report}}.dump(2)
                               << "\n";
    }
  }
  MPI_Finalize();
  return all_identical ? 0 : 1;
}
