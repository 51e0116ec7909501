// The MPI_Comm behind an mpi4py communicator, through mpi4py's C API (Debian's python3-mpi4py, built
// on the same Open MPI as redist): no copy, no second MPI.
#pragma once

#include <mpi.h>

#include <pybind11/pybind11.h>

namespace redist::python {

/// Throws TypeError (on this rank: no communicator, no agreement) for an object that is not an
/// mpi4py communicator, or for MPI.COMM_NULL.
MPI_Comm communicator(const pybind11::handle& comm);

}  // namespace redist::python
