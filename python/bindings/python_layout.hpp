// A layout as redist.mpi.Layout holds it: redist's Layout, the order of a processor's local storage
// (which decides the numpy arrays accepted without a copy) and, for one read from a ScaLAPACK
// descriptor, its LLD_ (checked against each rank's local rows when it redistributes).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>

#include "redist/layout/layout.hpp"

namespace redist::python {

struct PythonLayout {
  Layout layout;
  StorageOrder order = StorageOrder::RowMajor;  ///< 1-D layouts: any one-dimensional array
  std::optional<Index> leading_dimension;       ///< LLD_ of a descriptor

  /// ScaLAPACK's M, N, MB, NB over a Pr x Pc grid from process (RSRC, CSRC): redist::mpi's
  /// scalapack_layout, its local matrices column-major ("F", ScaLAPACK's) or row-major ("C").
  static PythonLayout scalapack(Index m, Index n, Index mb, Index nb, Index grid_rows, Index grid_cols, Index rsrc,
                                Index csrc, const std::string& order);
  /// A ScaLAPACK descriptor (DTYPE_ = 1, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_) over a Pr x Pc grid:
  /// CTXT_ is not read (a BLACS context is not Python's), LLD_ must be each rank's local rows.
  static PythonLayout descriptor(const std::vector<Index>& descriptor, Index grid_rows, Index grid_cols);
  /// CYCLIC(block) of `size` elements over `processors`, from processor `first`.
  static PythonLayout block_cyclic(Index size, Index block, Index processors, Index first);

  /// Throws std::invalid_argument for a processor outside the layout.
  std::vector<Index> local_shape(Index processor) const;
  /// The row-major global index of each element of `processor`'s local array, as an array of its
  /// local shape in its storage order.
  pybind11::array global_indices(Index processor) const;
  /// Why the leading dimension of a descriptor does not fit `processor`'s local rows, or empty.
  std::string leading_dimension_problem(const std::string& role, std::optional<Index> processor) const;
  std::string description() const;
};

}  // namespace redist::python
