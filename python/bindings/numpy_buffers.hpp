// A numpy array as the bytes a redistribution reads or writes, in place: what makes an array unusable
// without a copy (not an array, a dtype redist does not move, not contiguous in the layout's storage
// order, a read-only destination) is a problem for the ranks to agree on, never a copy. The sizes
// are left to redist's own checks (redist/redistribute/input_checks.hpp), which name the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <pybind11/numpy.h>

#include "redist/layout/multi_dim.hpp"

namespace redist::python {

struct ArrayBuffer {
  std::string problem;          ///< empty: the bytes are usable as they are
  std::span<std::byte> bytes;   ///< the array's memory (empty on a problem)
  std::uint64_t type = 0;       ///< the dtype's kind and size, the same on every rank; 0: not an array
  Index item_bytes = 0;
  std::string type_name;        ///< "float64"
};

/// The element types redist.mpi moves, as a sentence for messages.
inline constexpr const char* kMovedTypes = "float32, float64, complex64, complex128, int32 or int64";

/// `role` names the array in messages ("source array"). A multi-dimensional array must be contiguous
/// in `order` (the layout's local storage); a one-dimensional one, contiguous.
ArrayBuffer array_buffer(const pybind11::handle& object, const std::string& role, StorageOrder order, bool written);

/// A dtype of redist.mpi (a numpy dtype, a type or a name) as (type, item bytes, name), or a problem.
ArrayBuffer dtype_buffer(const pybind11::handle& dtype);

/// Why the source and destination cannot go together (their dtypes differ), or empty.
std::string same_type_problem(const ArrayBuffer& source, const ArrayBuffer& dest);

}  // namespace redist::python
