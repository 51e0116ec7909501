#include "numpy_buffers.hpp"

#include <bit>

namespace py = pybind11;

namespace redist::python {
namespace {

// Kind and size of the dtypes redist.mpi moves (native byte order only: redist copies bytes).
bool moved_type(char kind, Index size) {
  switch (kind) {
    case 'f': return size == 4 || size == 8;
    case 'c': return size == 8 || size == 16;
    case 'i': return size == 4 || size == 8;
    default: return false;
  }
}

bool native_order(char byteorder) {
  constexpr char kNative = std::endian::native == std::endian::little ? '<' : '>';
  return byteorder == '=' || byteorder == '|' || byteorder == kNative;
}

// Fills type, item_bytes and type_name from `dtype`; a problem when redist.mpi does not move it.
void describe_type(ArrayBuffer& out, const py::dtype& dtype, const std::string& role) {
  out.item_bytes = static_cast<Index>(dtype.itemsize());
  out.type = (static_cast<std::uint64_t>(static_cast<unsigned char>(dtype.kind())) << 32) |
             static_cast<std::uint64_t>(out.item_bytes);
  out.type_name = dtype.attr("name").cast<std::string>();
  if (!moved_type(dtype.kind(), out.item_bytes) || !native_order(dtype.byteorder())) {
    out.problem = role + " has dtype " + out.type_name + "; redist moves " + kMovedTypes + " in this machine's byte order";
  }
}

}  // namespace

ArrayBuffer array_buffer(const py::handle& object, const std::string& role, StorageOrder order, bool written) {
  ArrayBuffer out;
  if (!py::isinstance<py::array>(object)) {
    out.problem = role + " is a " + std::string(py::str(py::type::of(object).attr("__name__"))) +
                  ", not a numpy array (redist moves arrays in place, without a copy)";
    return out;
  }
  const auto array = py::reinterpret_borrow<py::array>(object);
  describe_type(out, array.dtype(), role);
  if (!out.problem.empty()) return out;
  const int flags = array.flags();
  const bool c_contiguous = (flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_) != 0;
  const bool f_contiguous = (flags & py::detail::npy_api::NPY_ARRAY_F_CONTIGUOUS_) != 0;
  if (array.ndim() <= 1 && !c_contiguous) {
    out.problem = role + " is not contiguous (a strided view): pass numpy.ascontiguousarray of it";
  } else if (array.ndim() > 1 && order == StorageOrder::ColumnMajor && !f_contiguous) {
    out.problem = role + " is not contiguous in column-major (Fortran) order, the layout's local storage: "
                         "allocate it with order='F' or pass numpy.asfortranarray of it";
  } else if (array.ndim() > 1 && order == StorageOrder::RowMajor && !c_contiguous) {
    out.problem = role + " is not contiguous in row-major (C) order, the layout's local storage: "
                         "allocate it with order='C' or pass numpy.ascontiguousarray of it";
  } else if (written && !array.writeable()) {
    out.problem = role + " is read-only";
  }
  if (!out.problem.empty()) return out;
  // A read-only source is only read: its bytes are taken as they are, never written.
  auto* data = static_cast<std::byte*>(const_cast<void*>(array.data()));
  out.bytes = {data, static_cast<std::size_t>(array.nbytes())};
  return out;
}

ArrayBuffer dtype_buffer(const py::handle& dtype) {
  ArrayBuffer out;
  py::dtype resolved;
  try {
    resolved = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
  } catch (const py::error_already_set&) {
    out.problem = "dtype " + py::repr(dtype).cast<std::string>() + " is not a numpy dtype";
    return out;
  }
  describe_type(out, resolved, "the plan");
  return out;
}

std::string same_type_problem(const ArrayBuffer& source, const ArrayBuffer& dest) {
  if (source.type == dest.type) return "";
  return "source array has dtype " + source.type_name + " and destination array " + dest.type_name +
         ": both must have the same";
}

}  // namespace redist::python
