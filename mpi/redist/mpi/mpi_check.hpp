// MPI's error codes as exceptions (the redist communicators return errors: MPI_ERRORS_RETURN).
#pragma once

#include <mpi.h>

namespace redist::mpi {

/// Returns on MPI_SUCCESS, else throws std::runtime_error("<call> failed: <MPI's error string>").
void check_mpi(int code, const char* call);

}  // namespace redist::mpi
