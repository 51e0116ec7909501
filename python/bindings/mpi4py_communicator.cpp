#include "mpi4py_communicator.hpp"

#include <mpi4py/mpi4py.h>

namespace py = pybind11;

namespace redist::python {

MPI_Comm communicator(const py::handle& comm) {
  // Importing the C API imports mpi4py.MPI, which initialises MPI: done at the first call, so that
  // importing redist.mpi alone starts nothing.
  static const bool imported = [] {
    if (import_mpi4py() < 0) throw py::error_already_set();
    return true;
  }();
  (void)imported;
  MPI_Comm* handle = PyMPIComm_Get(comm.ptr());
  if (handle == nullptr) throw py::error_already_set();  // mpi4py's TypeError: not a communicator
  if (*handle == MPI_COMM_NULL) throw py::type_error("comm is MPI.COMM_NULL, not a communicator");
  return *handle;
}

}  // namespace redist::python
