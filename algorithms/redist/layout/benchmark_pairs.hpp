// The twelve 2-D layout pairs redist measures itself on against ScaLAPACK's pdgemr2d: square and
// tall grids, one-element and whole-column blocks, first processes other than (0, 0), block sizes
// that divide each other and that do not. Written for 4 processes; for 4 · 2^k the grids are
// scaled, each doubling doubling the process rows of both grids, then the process columns, and so
// on. One table for every place that runs them: bench_mpi_vs_pdgemr2d on MPI, `redist validate`'s
// 2-D cases, and the tests that run them through the simulator, `explain` and MPI.
#pragma once

#include <string>
#include <vector>

#include "redist/layout/scalapack_descriptor.hpp"

namespace redist {

struct DescriptorPair {
  std::string name;  ///< "2x2 64x64 -> 4x1 64x64", as written for 4 processes
  ScalapackDescriptor from, to;
};

/// The pairs on `processes` = 4 · 2^k processes for a rows × cols matrix (column-major local
/// storage), or empty for other counts. Blocks larger than the matrix are left as written.
std::vector<DescriptorPair> benchmark_pairs(Index processes, Index rows, Index cols);

}  // namespace redist
