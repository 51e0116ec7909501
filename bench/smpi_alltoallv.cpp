// The communication pattern of a full all-to-all redistribution CYCLIC(1) -> CYCLIC(P) on P = Q
// ranks, as one MPI_Alltoallv: every pair exchanges the same message (argv[1] bytes). Built with
// smpicxx and run under SimGrid's smpirun by bench/alltoall_vs_smpi.py, as the outside reference
// for the simulator's speed. Prints the simulated time of the exchange (maximum over ranks).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bytes = argc > 1 ? std::atoi(argv[1]) : 128;
  std::vector<int> counts(size, bytes), displs(size);
  for (int i = 0; i < size; ++i) displs[i] = i * bytes;
  std::vector<char> send(static_cast<std::size_t>(size) * bytes), recv(send.size());

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  MPI_Alltoallv(send.data(), counts.data(), displs.data(), MPI_BYTE, recv.data(), counts.data(), displs.data(),
                MPI_BYTE, MPI_COMM_WORLD);
  const double elapsed = MPI_Wtime() - start;
  double longest = 0;
  MPI_Reduce(&elapsed, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%.9g\n", longest);
  MPI_Finalize();
  return 0;
}
