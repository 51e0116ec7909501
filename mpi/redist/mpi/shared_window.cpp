#include "redist/mpi/shared_window.hpp"

#include "redist/mpi/mpi_check.hpp"

namespace redist::mpi {

bool on_one_node(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int node_size = 0, size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_size(comm, &size);
  MPI_Comm_free(&node);
  return node_size == size;
}

SharedWindow allocate_shared_window(MPI_Comm comm, Index bytes) {
  SharedWindow shared;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each segment on its own pages
  const int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes), 1, info, comm, &shared.mine, &shared.window);
  MPI_Info_free(&info);
  check_mpi(code, "MPI_Win_allocate_shared");
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, shared.window), "MPI_Win_lock_all");
  int size = 0;
  MPI_Comm_size(comm, &size);
  shared.segments.assign(static_cast<std::size_t>(size), nullptr);
  for (int r = 0; r < size; ++r) {
    MPI_Aint segment_bytes = 0;
    int unit = 0;
    check_mpi(MPI_Win_shared_query(shared.window, r, &segment_bytes, &unit, &shared.segments[static_cast<std::size_t>(r)]),
              "MPI_Win_shared_query");
  }
  return shared;
}

void free_shared_window(SharedWindow& shared) {
  if (shared.window == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(shared.window);
  MPI_Win_free(&shared.window);
  shared.segments.clear();
  shared.mine = nullptr;
}

}  // namespace redist::mpi
