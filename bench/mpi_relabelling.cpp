// Relabelling on real MPI: for each layout pair, the bytes sent and the time of a
// kept plan with the destination processors numbered as they come and relabelled (exact
// assignment, relabelling.hpp), measured interleaved, every result checked element by element.
//   mpirun -np 4 bench_mpi_relabelling [--repeat 5] [--rows 4096] [--cols 4096]
// Pairs: ScaLAPACK grids of 4·2^k ranks whose destination starts on another process (RSRC/CSRC),
// or changes shape; the last one gains nothing, as control.
#include <mpi.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "mpi_timing.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/redistribute/relabelling.hpp"

namespace {

using redist::Index;
using redist::bench::everywhere;
using redist::bench::median_of;
using redist::bench::numbered;
using redist::bench::slowest;
using redist::mpi::ScalapackDescriptor;

struct Pair {
  const char* name;
  Index pr, pc, mb, nb, rsrc, csrc;
  Index qr, qc, mb2, nb2, rsrc2, csrc2;
};

// Pairs for 4 ranks; grids stretch with more ranks (rows doubled first).
const std::vector<Pair> kPairs = {
    {"4x1 block rows -> same, from process 1", 4, 1, 1024, 4096, 0, 0, 4, 1, 1024, 4096, 1, 0},
    {"2x2 64x64 -> same, from process (1,1)", 2, 2, 64, 64, 0, 0, 2, 2, 64, 64, 1, 1},
    {"2x2 512x512 -> 2x2 1024x1024 (1,0)", 2, 2, 512, 512, 0, 0, 2, 2, 1024, 1024, 1, 0},
    {"1x4 block columns -> same, from process 3", 1, 4, 4096, 1024, 0, 0, 1, 4, 4096, 1024, 0, 3},
    {"4x1 1024x64 -> 4x1 1024x32 (2,0)", 4, 1, 1024, 64, 0, 0, 4, 1, 1024, 32, 2, 0},
    {"2x2 64x64 -> 4x1 64x64", 2, 2, 64, 64, 0, 0, 4, 1, 64, 64, 0, 0},
    {"4x1 1x1 -> 1x4 1x1 (control)", 4, 1, 1, 1, 0, 0, 1, 4, 1, 1, 0, 0},
};

Index summed(Index mine) {
  Index all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int repeat = 5;
  Index rows = 4096, cols = 4096;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--repeat") repeat = std::stoi(argv[i + 1]);
    if (flag == "--rows") rows = std::stoll(argv[i + 1]);
    if (flag == "--cols") cols = std::stoll(argv[i + 1]);
  }
  int doublings = 0;
  while ((4 << doublings) < ranks) ++doublings;
  if (ranks != 4 << doublings) {
    if (rank == 0) std::fprintf(stderr, "bench_mpi_relabelling: run with mpirun -np 4, 8, 16, ... (4 times a power of two)\n");
    MPI_Finalize();
    return 1;
  }
  if (rank == 0) {
    std::printf("%lld x %lld doubles, %d ranks, kept plans (prylli, async), best of %d\n", static_cast<long long>(rows),
                static_cast<long long>(cols), ranks, repeat);
    std::printf("| pair | MiB sent as is | MiB sent relabelled | as is s | relabelled s | speed-up | identical |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
  }
  std::vector<double> gains;
  bool all_identical = true;
  for (Pair pair : kPairs) {
    for (int d = 0; d < doublings; ++d) {
      if (d % 2 == 0) pair.pr *= 2, pair.qr *= 2;
      else pair.pc *= 2, pair.qc *= 2;
    }
    pair.rsrc %= pair.qr, pair.csrc %= pair.qc;
    pair.rsrc2 %= pair.qr, pair.csrc2 %= pair.qc;
    const redist::Layout source = redist::mpi::scalapack_layout({rows, cols, pair.mb, pair.nb, pair.pr, pair.pc, pair.rsrc, pair.csrc});
    const redist::Layout dest = redist::mpi::scalapack_layout({rows, cols, pair.mb2, pair.nb2, pair.qr, pair.qc, pair.rsrc2, pair.csrc2});
    const redist::RankMap as_is = redist::RankMap::shared();
    const redist::RankMap relabelled = redist::relabelled_ranks(source, dest, redist::RelabelMethod::Exact);
    const std::vector<double> a = numbered(source, as_is.source_of(rank, source.processors()));
    const std::vector<double> want_as_is = numbered(dest, as_is.dest_of(rank, dest.processors()));
    const std::vector<double> want_relabelled = numbered(dest, relabelled.dest_of(rank, dest.processors()));
    std::vector<double> b(want_as_is.size()), c(want_relabelled.size());
    redist::mpi::Plan plain(MPI_COMM_WORLD, source, dest, {8, "prylli", "async", as_is});
    redist::mpi::Plan moved(MPI_COMM_WORLD, source, dest, {8, "prylli", "async", relabelled});
    double plain_best = 1e300, moved_best = 1e300;
    Index plain_sent = 0, moved_sent = 0;
    bool identical = true;
    for (int k = 0; k < repeat; ++k) {
      std::fill(b.begin(), b.end(), -1.0);
      MPI_Barrier(MPI_COMM_WORLD);
      double start = MPI_Wtime();
      plain_sent = plain.execute<double>(a, b).bytes_sent;
      plain_best = std::min(plain_best, slowest(MPI_Wtime() - start));
      std::fill(c.begin(), c.end(), -1.0);
      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
      moved_sent = moved.execute<double>(a, c).bytes_sent;
      moved_best = std::min(moved_best, slowest(MPI_Wtime() - start));
      identical = identical && b == want_as_is && c == want_relabelled;
    }
    identical = everywhere(identical);
    all_identical = all_identical && identical;
    const Index sent_as_is = summed(plain_sent), sent_relabelled = summed(moved_sent);
    if (sent_relabelled < sent_as_is) gains.push_back(plain_best / moved_best);
    if (rank == 0) {
      std::printf("| %s | %.1f | %.1f | %.4f | %.4f | %.2f | %s |\n", pair.name, static_cast<double>(sent_as_is) / (1 << 20),
                  static_cast<double>(sent_relabelled) / (1 << 20), plain_best, moved_best, plain_best / moved_best,
                  identical ? "yes" : "NO");
      std::fflush(stdout);
    }
  }
  if (rank == 0) {
    std::printf("median speed-up of relabelled plans on the %zu pairs where relabelling sends less: %.2f\n", gains.size(),
                median_of(gains));
  }
  MPI_Finalize();
  return all_identical ? 0 : 1;
}
