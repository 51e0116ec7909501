#include "redist/mpi/pdgemr2d.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
void Cblacs_pinfo(int* me, int* procs);
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void Cpdgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb,
               int context);
}

namespace redist::mpi {
namespace {

int as_int(Index value, const char* what) {
  if (value < 0 || value > 2147483647) throw std::invalid_argument(std::string(what) + " does not fit ScaLAPACK's int");
  return static_cast<int>(value);
}

// A grid on ranks first, first+1, ... in BLACS row-major order; -1 on ranks outside it.
int make_grid(const ScalapackDescriptor& d, Index first) {
  const int rows = as_int(d.grid_rows, "grid rows"), cols = as_int(d.grid_cols, "grid columns");
  std::vector<int> map(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  for (int pr = 0; pr < rows; ++pr) {
    for (int pc = 0; pc < cols; ++pc) {
      map[static_cast<std::size_t>(pr + pc * rows)] = as_int(first + pr * cols + pc, "rank");  // column-major map
    }
  }
  int context = 0;
  Cblacs_get(-1, 0, &context);  // the system context: MPI_COMM_WORLD
  Cblacs_gridmap(&context, map.data(), rows, rows, cols);
  return context;
}

// DESC of ScaLAPACK: DTYPE, CTXT, M, N, MB, NB, RSRC, CSRC, LLD.
void describe(const ScalapackDescriptor& d, int context, int* desc) {
  int lld = 1;
  if (context >= 0) {
    int nprow = 0, npcol = 0, myrow = 0, mycol = 0;
    Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
    const BlockCyclic rows(d.rows, d.row_block, d.grid_rows, d.first_row);
    lld = as_int(std::max<Index>(1, rows.local_size(myrow)), "local rows");
  }
  const int values[9] = {1, context, as_int(d.rows, "rows"), as_int(d.cols, "columns"), as_int(d.row_block, "MB"),
                         as_int(d.col_block, "NB"), as_int(d.first_row, "RSRC"), as_int(d.first_col, "CSRC"), lld};
  std::copy(values, values + 9, desc);
}

}  // namespace

Pdgemr2d::Pdgemr2d(const MatrixCopy& copy, Index from_first_rank, Index to_first_rank) : copy_(copy) {
  const ScalapackDescriptor &from = copy.from, &to = copy.to;
  // ScaLAPACK checks nothing of a copy: a submatrix outside its matrix would be read or written
  // past the local arrays.
  if (const std::string problem = matrix_copy_problem(copy); !problem.empty()) {
    throw std::invalid_argument("pdgemr2d: " + problem);
  }
  int me = 0, procs = 0;
  Cblacs_pinfo(&me, &procs);
  if (from_first_rank + from.grid_rows * from.grid_cols > procs || to_first_rank + to.grid_rows * to.grid_cols > procs) {
    throw std::invalid_argument("pdgemr2d: the grids need more ranks than the " + std::to_string(procs) + " running");
  }
  from_context_ = make_grid(from, from_first_rank);
  to_context_ = make_grid(to, to_first_rank);
  ScalapackDescriptor all{1, 1, 1, 1, 1, procs, 0, 0};
  all_context_ = make_grid(all, 0);
  describe(from, from_context_, from_desc_);
  describe(to, to_context_, to_desc_);
}

Pdgemr2d::~Pdgemr2d() {
  for (const int context : {from_context_, to_context_, all_context_}) {
    if (context >= 0) Cblacs_gridexit(context);
  }
}

void Pdgemr2d::run(const double* from_local, double* to_local) {
  double none = 0;  // ScaLAPACK dereferences nothing on ranks outside a grid, but wants a pointer
  // ScaLAPACK's IA, JA, IB, JB count from 1. The sizes fit int: describe() checked the matrices'.
  const auto one_based = [](Index row0) { return static_cast<int>(row0 + 1); };
  Cpdgemr2d(static_cast<int>(copy_.rows), static_cast<int>(copy_.cols),
            from_local ? const_cast<double*>(from_local) : &none, one_based(copy_.from_row0), one_based(copy_.from_col0),
            from_desc_, to_local ? to_local : &none, one_based(copy_.to_row0), one_based(copy_.to_col0), to_desc_,
            all_context_);
}

}  // namespace redist::mpi
