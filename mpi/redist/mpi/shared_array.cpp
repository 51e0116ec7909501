#include "redist/mpi/shared_array.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "redist/mpi/agreement.hpp"
#include "redist/mpi/mpi_check.hpp"

namespace redist::mpi {
namespace {

// Every shared storage of this process, for redistributions to recognise their buffers.
std::vector<const SharedStorage*>& registry() {
  static std::vector<const SharedStorage*> storages;
  return storages;
}

// The highest id this process has taken part in; a new storage takes one above every rank's.
std::uint64_t& last_id() {
  static std::uint64_t id = 0;
  return id;
}

bool finalized() {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

std::string size_problem(Index elements, Index elem_bytes) {
  if (elements < 0) return "SharedArray of a negative size " + std::to_string(elements);
  if (elem_bytes > 0 && elements > std::numeric_limits<Index>::max() / elem_bytes) {
    return "SharedArray of " + std::to_string(elements) + " elements of " + std::to_string(elem_bytes) +
           " bytes: beyond 64-bit sizes";
  }
  return "";
}

}  // namespace

SharedStorage::SharedStorage(MPI_Comm comm, Index elements, Index elem_bytes) {
  agree_on_problems(comm, size_problem(elements, elem_bytes));
  bytes_ = elements * elem_bytes;
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  std::uint64_t next = last_id() + 1;
  check_mpi(MPI_Allreduce(&next, &id_, 1, MPI_UINT64_T, MPI_MAX, comm_), "MPI_Allreduce");
  last_id() = id_;

  // Where shared memory cannot be had (a small /dev/shm: on every rank alike), private memory: the
  // array works as everywhere off one node, its redistributions going as messages.
  std::string why;
  std::optional<SharedWindow> shared = on_one_node(comm_) ? try_allocate_shared_window(comm_, bytes_, why) : std::nullopt;
  if (!shared) {
    private_ = std::make_unique<std::byte[]>(static_cast<std::size_t>(std::max<Index>(bytes_, 1)));
    mine_ = private_.get();
    return;
  }
  window_ = std::move(*shared);
  mine_ = window_.mine;
  registry().push_back(this);
}

SharedStorage::~SharedStorage() {
  std::erase(registry(), this);
  if (finalized()) return;  // MPI freed everything at MPI_Finalize
  free_shared_window(window_);
  MPI_Comm_free(&comm_);
}

std::span<const SharedStorage* const> shared_storages() { return registry(); }

const SharedStorage* shared_storage_holding(const std::byte* data, Index bytes) {
  for (const SharedStorage* storage : registry()) {
    const auto begin = reinterpret_cast<std::uintptr_t>(storage->data()), at = reinterpret_cast<std::uintptr_t>(data);
    if (at >= begin && at + static_cast<std::uintptr_t>(bytes) <= begin + static_cast<std::uintptr_t>(storage->bytes())) {
      return storage;
    }
  }
  return nullptr;
}

}  // namespace redist::mpi
