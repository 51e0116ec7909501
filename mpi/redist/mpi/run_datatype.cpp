#include "redist/mpi/run_datatype.hpp"

#include <climits>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "redist/mpi/mpi_check.hpp"

namespace redist::mpi {
namespace {

bool fits_int(Index value) { return value >= 0 && value <= INT_MAX; }

// One strided run's pieces as an hvector of bytes: (count, bytes per piece, stride in bytes).
using Shape = std::tuple<Index, Index, Index>;

}  // namespace

RunDatatype RunDatatype::of(std::span<const Run> runs, Index elem_bytes) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> displacements;
  std::vector<MPI_Datatype> types;
  std::map<Shape, MPI_Datatype> vectors;  // one hvector per distinct shape, shared by its runs
  const auto free_vectors = [&vectors] {
    for (auto& [shape, type] : vectors) MPI_Type_free(&type);
  };
  for (const Run& run : runs) {
    const Index bytes = run.length * elem_bytes;
    if (bytes == 0 || run.count == 0) continue;
    if (!fits_int(bytes) || !fits_int(run.count)) {
      free_vectors();
      return {};
    }
    displacements.push_back(static_cast<MPI_Aint>(run.local_start * elem_bytes));
    if (run.count == 1) {
      lengths.push_back(static_cast<int>(bytes));
      types.push_back(MPI_BYTE);
      continue;
    }
    const Shape shape{run.count, bytes, run.stride * elem_bytes};
    auto [at, fresh] = vectors.try_emplace(shape, MPI_DATATYPE_NULL);
    if (fresh) {
      check_mpi(MPI_Type_create_hvector(static_cast<int>(run.count), static_cast<int>(bytes),
                                    static_cast<MPI_Aint>(run.stride * elem_bytes), MPI_BYTE, &at->second),
            "MPI_Type_create_hvector");
    }
    lengths.push_back(1);
    types.push_back(at->second);
  }
  if (!fits_int(static_cast<Index>(lengths.size()))) {
    free_vectors();
    return {};
  }
  RunDatatype out;
  check_mpi(MPI_Type_create_struct(static_cast<int>(lengths.size()), lengths.data(), displacements.data(), types.data(),
                               &out.type_),
        "MPI_Type_create_struct");
  check_mpi(MPI_Type_commit(&out.type_), "MPI_Type_commit");
  free_vectors();  // the struct keeps what it needs of them
  return out;
}

RunDatatype::RunDatatype(RunDatatype&& other) noexcept : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}

RunDatatype& RunDatatype::operator=(RunDatatype&& other) noexcept {
  if (this != &other) {
    if (valid()) MPI_Type_free(&type_);
    type_ = std::exchange(other.type_, MPI_DATATYPE_NULL);
  }
  return *this;
}

RunDatatype::~RunDatatype() {
  if (valid()) MPI_Type_free(&type_);
}

}  // namespace redist::mpi
