// ScaLAPACK's pdgemr2d (Debian's libscalapack-openmpi, through its C entry Cpdgemr2d and the
// Cblacs_* calls) on the layouts of two descriptors, a whole matrix or sub(A) into sub(B): the
// outside reference redist is compared with.
#pragma once

#include <mpi.h>

#include "redist/indexing/matrix_copy.hpp"
#include "redist/mpi/scalapack_layout.hpp"

namespace redist::mpi {

/// A pdgemr2d copy of doubles, sub(A) of descriptor `copy.from` into sub(B) of `copy.to` (its m, n,
/// IA, JA, IB, JB from the MatrixCopy), with its BLACS grids built once. Process (pr, pc) of a grid is rank first_rank + pr · grid_cols + pc of
/// MPI_COMM_WORLD (BLACS' system context). Collective over MPI_COMM_WORLD, as are run() and the
/// destructor. Local matrices are column-major with LLD = local rows, as in scalapack_layout().
class Pdgemr2d {
 public:
  Pdgemr2d(const MatrixCopy& copy, Index from_first_rank, Index to_first_rank);
  /// The whole matrix of `from` into the whole of `to` (the same M x N).
  Pdgemr2d(const ScalapackDescriptor& from, Index from_first_rank, const ScalapackDescriptor& to, Index to_first_rank)
      : Pdgemr2d(MatrixCopy::whole(from, to), from_first_rank, to_first_rank) {}
  ~Pdgemr2d();
  Pdgemr2d(const Pdgemr2d&) = delete;
  Pdgemr2d& operator=(const Pdgemr2d&) = delete;

  /// Copies; `from_local` / `to_local` may be null on ranks outside the source / destination grid.
  void run(const double* from_local, double* to_local);

 private:
  MatrixCopy copy_;
  int from_context_ = -1, to_context_ = -1, all_context_ = -1;
  int from_desc_[9] = {}, to_desc_[9] = {};
};

}  // namespace redist::mpi
