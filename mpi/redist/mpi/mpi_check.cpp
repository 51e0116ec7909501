#include "redist/mpi/mpi_check.hpp"

#include <stdexcept>
#include <string>

namespace redist::mpi {

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

}  // namespace redist::mpi
