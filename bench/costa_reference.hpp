// COSTA (eth-cscs/COSTA) as a second outside reference of bench_mpi_vs_pdgemr2d: its transform()
// between two ScaLAPACK-style block-cyclic layouts. Compiled against COSTA only when the build
// was given -DREDIST_COSTA_DIR (bench/README.md); otherwise available() is false.
#pragma once

#include <mpi.h>

#include "redist/mpi/scalapack_layout.hpp"

namespace redist::bench {

/// Whether this build has COSTA.
bool costa_available();

/// Collective over `comm`: B (layout `to`) := A (layout `from`), local matrices column-major with
/// the leading dimension their local rows, processes row-major over each grid. Returns the
/// seconds of COSTA's transform() on this rank (building COSTA's layout objects is not timed).
/// Throws std::logic_error when !costa_available().
double costa_redistribute(const redist::mpi::ScalapackDescriptor& from, const double* a,
                          const redist::mpi::ScalapackDescriptor& to, double* b, MPI_Comm comm);

}  // namespace redist::bench
