// For bench/python_vs_cpp.py: redist::mpi::redistribute() called from C++ on the numpy arrays the
// Python calls use, timed in C++ (from a barrier to the call's end on this rank), so that the
// benchmark compares redist from Python and from C++ in one run, on the same memory. Only float64
// ScaLAPACK layouts (column-major local matrices), which is what the benchmark moves.
#include <mpi.h>

#include <mpi4py/mpi4py.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <span>
#include <stdexcept>

#include "redist/mpi/redistribute.hpp"

namespace py = pybind11;

namespace {

using Descriptor = std::array<redist::Index, 6>;  // M, N, MB, NB, Pr, Pc

redist::Layout layout_of(const Descriptor& d) {
  return redist::mpi::scalapack_layout(
      {.rows = d[0], .cols = d[1], .row_block = d[2], .col_block = d[3], .grid_rows = d[4], .grid_cols = d[5]});
}

double redistribute_seconds(const py::handle& comm_object, const Descriptor& source, const Descriptor& dest,
                            py::array_t<double, py::array::f_style> a, py::array_t<double, py::array::f_style> b) {
  if (import_mpi4py() < 0) throw py::error_already_set();
  MPI_Comm* comm = PyMPIComm_Get(comm_object.ptr());
  if (comm == nullptr) throw py::error_already_set();
  const redist::Layout from = layout_of(source), to = layout_of(dest);
  const std::span<const double> a_span(a.data(), static_cast<std::size_t>(a.size()));
  const std::span<double> b_span(b.mutable_data(), static_cast<std::size_t>(b.size()));
  py::gil_scoped_release moving;
  MPI_Barrier(*comm);
  const double start = MPI_Wtime();
  redist::mpi::redistribute<double>(*comm, from, to, a_span, b_span);
  return MPI_Wtime() - start;
}

}  // namespace

PYBIND11_MODULE(redist_cpp_timing, m) {
  m.def("redistribute_seconds", &redistribute_seconds, py::arg("comm"), py::arg("source"), py::arg("dest"),
        py::arg("a").noconvert(), py::arg("b").noconvert());
}
