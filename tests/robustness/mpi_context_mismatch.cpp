// A drop-in call whose ranks' ICTXTs name other processes (argv[1] "subset": rank 3 passes a context
// over processes 2 and 3 where the others pass the 2 x 2 one over all four; "order": rank 1 passes a
// context over the four in another order). Such ranks share no communicator: the call once left
// every rank waiting for ever. Run by check_mpi_context_mismatch.py under mpirun -np 4, which wants
// the job ended at once with one line saying why. "same": every rank passes the 2 x 2 context, and
// the copy is made (the check's own control).
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "redist/scalapack/scalapack.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridmap(int* context, int* map, int ldmap, int nprow, int npcol);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "same";
  int grid = 0, pair = 0, permuted = 0;
  Cblacs_get(-1, 0, &grid);
  Cblacs_gridinit(&grid, "Row", 2, 2);
  int last_two[] = {2, 3}, reordered[] = {1, 0, 2, 3};
  Cblacs_get(-1, 0, &pair);
  Cblacs_gridmap(&pair, last_two, 1, 1, 2);  // every rank calls it; ranks 0 and 1 get no context
  Cblacs_get(-1, 0, &permuted);
  Cblacs_gridmap(&permuted, reordered, 1, 1, 4);
  int ictxt = grid;
  if (std::strcmp(mode, "subset") == 0 && rank == 3) ictxt = pair;
  if (std::strcmp(mode, "order") == 0 && rank == 1) ictxt = permuted;
  // An 8 x 8 matrix in 4 x 4 blocks on the 2 x 2 grid: one block per rank, copied to B alike.
  int desc[9] = {1, grid, 8, 8, 4, 4, 0, 0, 4};
  std::vector<double> a(16, 1.0), b(16, 0.0);
  redist::scalapack::gemr2d<double>(8, 8, a.data(), 1, 1, desc, b.data(), 1, 1, desc, ictxt);
  const bool copied = b == a;
  if (!copied) std::printf("rank %d: B not copied\n", rank);
  MPI_Finalize();
  return copied ? 0 : 1;
}
