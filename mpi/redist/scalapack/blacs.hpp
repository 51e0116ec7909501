// What the drop-in entries ask of BLACS (Debian's, inside libscalapack-openmpi): the MPI
// communicator behind a context, and this process's place in a context's grid.
#pragma once

#include <mpi.h>

#include "redist/scalapack/descriptor.hpp"

namespace redist::scalapack {

/// The MPI communicator of BLACS context `context`, owned by BLACS; MPI_COMM_NULL when this
/// process is not in the context.
MPI_Comm context_communicator(int context);

/// This process's place in the grid of `context`: outside (row and column -1) when `context` is
/// negative (ScaLAPACK's mark of a matrix not held here) or names no grid this process is in.
GridPlace grid_place(int context);

}  // namespace redist::scalapack
