#include "costa_reference.hpp"

#include <algorithm>
#include <stdexcept>

#include "redist/layout/block_cyclic.hpp"

#ifdef REDIST_HAVE_COSTA
#include <costa/grid2grid/transform.hpp>
#include <costa/layout.hpp>
#endif

namespace redist::bench {

bool costa_available() {
#ifdef REDIST_HAVE_COSTA
  return true;
#else
  return false;
#endif
}

#ifdef REDIST_HAVE_COSTA
namespace {

// COSTA's layout of descriptor `d` over this rank's local matrix (a rank beyond the grid owns nothing).
costa::grid_layout<double> costa_layout(const redist::mpi::ScalapackDescriptor& d, double* local, int rank) {
  const bool in_grid = rank < d.grid_rows * d.grid_cols;
  const Index local_rows =
      in_grid ? BlockCyclic(d.rows, d.row_block, d.grid_rows, d.first_row).local_size(rank / d.grid_cols) : 0;
  const auto i = [](Index v) { return static_cast<int>(v); };
  return costa::block_cyclic_layout<double>(i(d.rows), i(d.cols), i(d.row_block), i(d.col_block), 1, 1, i(d.rows),
                                            i(d.cols), i(d.grid_rows), i(d.grid_cols), 'R', i(d.first_row),
                                            i(d.first_col), local, std::max(1, i(local_rows)), 'C', rank);
}

}  // namespace

double costa_redistribute(const redist::mpi::ScalapackDescriptor& from, const double* a,
                          const redist::mpi::ScalapackDescriptor& to, double* b, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  auto source = costa_layout(from, const_cast<double*>(a), rank);  // COSTA only reads the source
  auto dest = costa_layout(to, b, rank);
  const double start = MPI_Wtime();
  costa::transform<double>(source, dest, comm);
  return MPI_Wtime() - start;
}
#else
double costa_redistribute(const redist::mpi::ScalapackDescriptor&, const double*, const redist::mpi::ScalapackDescriptor&,
                          double*, MPI_Comm) {
  throw std::logic_error("this build has no COSTA (configure with -DREDIST_COSTA_DIR)");
}
#endif

}  // namespace redist::bench
