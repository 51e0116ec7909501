#include "redist/mpi/shared_window.hpp"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

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

namespace {

// Where Open MPI backs shared windows: a file its node's first rank makes in
// osc_sm_backing_directory (/dev/shm on Linux). Set in the environment as OMPI_MCA_ variables
// are; empty where unknown.
std::string backing_directory() {
  if (const char* set = std::getenv("OMPI_MCA_osc_sm_backing_directory"); set != nullptr) return set;
  struct stat info {};
  return ::stat("/dev/shm", &info) == 0 && S_ISDIR(info.st_mode) ? "/dev/shm" : "";
}

// Why the node's window of `node_bytes` in all would not fit where it is backed, or empty.
std::string no_room(Index node_bytes) {
  const std::string folder = backing_directory();
  if (folder.empty()) return {};
  struct statvfs room {};
  if (::statvfs(folder.c_str(), &room) != 0) return folder + ": " + std::strerror(errno);
  const auto free_bytes = static_cast<unsigned long long>(room.f_bavail) * room.f_frsize;
  if (static_cast<unsigned long long>(node_bytes) <= free_bytes) return {};
  return "the node's window needs " + std::to_string(node_bytes) + " bytes, " + folder + " has " +
         std::to_string(free_bytes) + " free";
}

}  // namespace

std::optional<SharedWindow> try_allocate_shared_window(MPI_Comm comm, Index bytes, std::string& why) {
  // Open MPI's first rank of a node that cannot make the window's file returns an error while the
  // others wait for it inside MPI_Win_allocate_shared for ever: the room is checked first, on every
  // rank (each segment on its own pages, and a page for the window's own data).
  const auto page = static_cast<Index>(::sysconf(_SC_PAGESIZE));
  Index node_bytes = (bytes + 2 * page - 1) / page * page;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &node_bytes, 1, MPI_INT64_T, MPI_SUM, comm), "MPI_Allreduce");
  why = no_room(node_bytes);
  int me = 0;
  MPI_Comm_rank(comm, &me);
  int teller = why.empty() ? INT_MAX : me;  // the lowest rank that found no room says why
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &teller, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (teller != INT_MAX) {
    int length = static_cast<int>(why.size());
    MPI_Bcast(&length, 1, MPI_INT, teller, comm);
    why.resize(static_cast<std::size_t>(length));
    MPI_Bcast(why.data(), length, MPI_CHAR, teller, comm);
    return std::nullopt;
  }
  SharedWindow shared;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each segment on its own pages
  int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes), 1, info, comm, &shared.mine, &shared.window);
  MPI_Info_free(&info);
  if (code == MPI_SUCCESS) code = MPI_Win_lock_all(MPI_MODE_NOCHECK, shared.window);
  int size = 0;
  MPI_Comm_size(comm, &size);
  shared.segments.assign(static_cast<std::size_t>(size), nullptr);
  for (int r = 0; r < size && code == MPI_SUCCESS; ++r) {
    MPI_Aint segment_bytes = 0;
    int unit = 0;
    code = MPI_Win_shared_query(shared.window, r, &segment_bytes, &unit, &shared.segments[static_cast<std::size_t>(r)]);
  }
  int failed = code != MPI_SUCCESS ? 1 : 0;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
  if (failed == 0) return shared;
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    why = std::string("MPI_Win_allocate_shared of ") + std::to_string(bytes) + " bytes: " + std::string(text, static_cast<std::size_t>(length));
  } else {
    why = "MPI_Win_allocate_shared failed on another rank of the node";
  }
  if (code == MPI_SUCCESS) {  // made here, not everywhere: left to MPI_Finalize
    shared.window = MPI_WIN_NULL;
  }
  return std::nullopt;
}

void free_shared_window(SharedWindow& shared) {
  if (shared.window == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(shared.window);
  MPI_Win_free(&shared.window);
  shared.segments.clear();
  shared.mine = nullptr;
}

}  // namespace redist::mpi
