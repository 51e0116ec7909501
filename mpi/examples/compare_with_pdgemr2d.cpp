// Example: one move by redist and by ScaLAPACK's pdgemr2d (redist::mpi::Pdgemr2d, installed in
// redist::redist_mpi_reference), the two results compared element by element and timed.
//   mpirun -np 4 compare_with_pdgemr2d
#include <mpi.h>

#include <cstdio>
#include <vector>

#include <redist/mpi/pdgemr2d.hpp>
#include <redist/mpi/plan.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const redist::Index m = 1000, n = 800;
  const redist::mpi::ScalapackDescriptor from{m, n, 32, 32, ranks >= 2 ? 2 : 1, ranks >= 2 ? ranks / 2 : 1, 0, 0};
  const redist::mpi::ScalapackDescriptor to{m, n, 7, 5, 1, ranks, 0, 0};
  const redist::Layout source = redist::mpi::scalapack_layout(from), dest = redist::mpi::scalapack_layout(to);
  std::vector<double> a(rank < source.processors() ? static_cast<std::size_t>(source.local_size(rank)) : 0);
  for (std::size_t l = 0; l < a.size(); ++l) a[l] = static_cast<double>(source.global_index(rank, static_cast<redist::Index>(l)));
  std::vector<double> by_redist(static_cast<std::size_t>(dest.local_size(rank))), by_scalapack(by_redist.size(), -1.0);

  int any = 0;
  {  // The plan and pdgemr2d's BLACS grids are freed (collectively) before MPI_Finalize.
    redist::mpi::Plan plan(MPI_COMM_WORLD, source, dest, {.indexing = "prylli"});
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    plan.execute<double>(a, by_redist);
    const double redist_seconds = MPI_Wtime() - start;

    redist::mpi::Pdgemr2d scalapack(from, 0, to, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    scalapack.run(a.empty() ? nullptr : a.data(), by_scalapack.empty() ? nullptr : by_scalapack.data());
    const double scalapack_seconds = MPI_Wtime() - start;

    int differ = by_redist == by_scalapack ? 0 : 1;
    MPI_Allreduce(&differ, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("%s: redist %.6f s, pdgemr2d %.6f s (rank 0)\n", any ? "results differ" : "identical results",
                  redist_seconds, scalapack_seconds);
    }
  }
  MPI_Finalize();
  return any;
}
