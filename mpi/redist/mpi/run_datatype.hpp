// A peer plan's runs of local storage as an MPI derived datatype, in message order: MPI then reads
// a message straight out of source storage and writes it straight into destination storage,
// with no pack into a buffer of ours and no unpack out of it.
#pragma once

#include <mpi.h>

#include <span>

#include "redist/transport/transport.hpp"

namespace redist::mpi {

/// Owns a committed MPI datatype (freed with it). Displacements are bytes from the start of the
/// rank's local storage, so one datatype serves any buffer of that layout.
class RunDatatype {
 public:
  /// `runs` as one datatype of their elements × elem_bytes bytes; a strided run becomes one
  /// hvector. Invalid (valid() false) when a piece or a count exceeds MPI's int.
  static RunDatatype of(std::span<const Run> runs, Index elem_bytes);

  RunDatatype() = default;
  RunDatatype(RunDatatype&& other) noexcept;
  RunDatatype& operator=(RunDatatype&& other) noexcept;
  RunDatatype(const RunDatatype&) = delete;
  RunDatatype& operator=(const RunDatatype&) = delete;
  ~RunDatatype();

  bool valid() const { return type_ != MPI_DATATYPE_NULL; }
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// A message's place in local storage as MPI moves it in place (Transport::describe_message).
struct DatatypePlace final : MessagePlace {
  RunDatatype type;
};

}  // namespace redist::mpi
