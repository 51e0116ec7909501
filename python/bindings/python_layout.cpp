#include "python_layout.hpp"

#include <algorithm>
#include <stdexcept>

#include "redist/core/checks.hpp"
#include "redist/mpi/scalapack_layout.hpp"

namespace py = pybind11;

namespace redist::python {
namespace {

StorageOrder storage_order(const std::string& order) {
  if (order == "F") return StorageOrder::ColumnMajor;
  if (order == "C") return StorageOrder::RowMajor;
  throw std::invalid_argument("order '" + order + "' is neither 'F' (column-major, ScaLAPACK's) nor 'C' (row-major)");
}

// The same 2-D layout with another local storage order.
Layout stored(const Layout& layout, StorageOrder order) {
  const auto& grid = std::get<MultiDimLayout>(layout.variant());
  if (grid.storage() == order) return layout;
  return MultiDimLayout({grid.dim(0), grid.dim(1)}, order);
}

}  // namespace

PythonLayout PythonLayout::scalapack(Index m, Index n, Index mb, Index nb, Index grid_rows, Index grid_cols, Index rsrc,
                                     Index csrc, const std::string& order) {
  const StorageOrder storage = storage_order(order);
  const Layout column_major = mpi::scalapack_layout({.rows = m, .cols = n, .row_block = mb, .col_block = nb,
                                                     .grid_rows = grid_rows, .grid_cols = grid_cols,
                                                     .first_row = rsrc, .first_col = csrc});
  return {stored(column_major, storage), storage, std::nullopt};
}

PythonLayout PythonLayout::descriptor(const std::vector<Index>& d, Index grid_rows, Index grid_cols) {
  if (d.size() != 9) {
    throw std::invalid_argument("a ScaLAPACK descriptor has 9 entries (DTYPE_, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, "
                                "LLD_), got " + std::to_string(d.size()));
  }
  if (d[0] != 1) throw std::invalid_argument("DTYPE_ " + std::to_string(d[0]) + " is not 1 (a dense matrix)");
  PythonLayout layout = scalapack(d[2], d[3], d[4], d[5], grid_rows, grid_cols, d[6], d[7], "F");
  if (d[8] < 1) throw std::invalid_argument("LLD_ " + std::to_string(d[8]) + " is below 1");
  layout.leading_dimension = d[8];
  return layout;
}

PythonLayout PythonLayout::block_cyclic(Index size, Index block, Index processors, Index first) {
  return {BlockCyclic(size, block, processors, first), StorageOrder::RowMajor, std::nullopt};
}

std::vector<Index> PythonLayout::local_shape(Index processor) const {
  if (processor < 0 || processor >= layout.processors()) {
    throw std::invalid_argument("processor " + std::to_string(processor) + " is outside the layout's " +
                                std::to_string(layout.processors()) + " processors");
  }
  if (const auto* grid = std::get_if<MultiDimLayout>(&layout.variant())) return grid->local_shape(processor);
  return {layout.local_size(processor)};
}

py::array PythonLayout::global_indices(Index processor) const {
  const std::vector<Index> shape = local_shape(processor);
  std::vector<py::ssize_t> extents(shape.begin(), shape.end());
  py::array out = order == StorageOrder::ColumnMajor
                            ? py::array(py::array_t<std::int64_t, py::array::f_style>(extents))
                            : py::array(py::array_t<std::int64_t, py::array::c_style>(extents));
  auto* data = static_cast<std::int64_t*>(out.mutable_data());
  const Index count = layout.local_size(processor);
  for (Index local = 0; local < count; ++local) data[local] = layout.global_index(processor, local);
  return out;
}

std::string PythonLayout::leading_dimension_problem(const std::string& role, std::optional<Index> processor) const {
  if (!leading_dimension || !processor) return "";
  const Index rows = local_shape(*processor)[0];
  if (*leading_dimension == std::max<Index>(1, rows)) return "";
  return role + "'s descriptor has LLD_ " + std::to_string(*leading_dimension) + ", this rank holds " +
         std::to_string(rows) + " local rows: redist.mpi moves dense local matrices (LLD_ = local rows)";
}

std::string PythonLayout::description() const {
  std::string text;
  if (const auto* grid = std::get_if<MultiDimLayout>(&layout.variant())) {
    const auto shape = grid->shape();
    const auto procs = grid->grid_shape();
    text = "Layout.scalapack(" + std::to_string(shape[0]) + ", " + std::to_string(shape[1]) + ", " +
           std::to_string(grid->dim(0).layout().block_size()) + ", " + std::to_string(grid->dim(1).layout().block_size()) +
           ", grid=(" + std::to_string(procs[0]) + ", " + std::to_string(procs[1]) + "), first=(" +
           std::to_string(grid->dim(0).layout().first_proc()) + ", " + std::to_string(grid->dim(1).layout().first_proc()) +
           "), order='" + (order == StorageOrder::ColumnMajor ? "F" : "C") + "')";
  } else if (const auto* line = std::get_if<BlockCyclic>(&layout.variant())) {
    text = "Layout.block_cyclic(" + std::to_string(line->size()) + ", " + std::to_string(line->block_size()) + ", " +
           std::to_string(line->procs()) + ", first=" + std::to_string(line->first_proc()) + ")";
  }
  return text;
}

}  // namespace redist::python
