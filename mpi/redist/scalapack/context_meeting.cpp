#include "redist/scalapack/context_meeting.hpp"

#include <cstddef>
#include <limits>
#include <memory>
#include <numeric>
#include <vector>

#include "redist/mpi/communicator_cache.hpp"
#include "redist/mpi/mpi_check.hpp"
#include "redist/scalapack/blacs.hpp"

namespace redist::scalapack {
namespace {

// The tag of MPI_Comm_create_group: the same on every process of a set (a process makes one
// communicator at a time).
constexpr int kMeetingTag = 0x7ed1;

struct SetCommunicator {
  MPI_Comm comm = MPI_COMM_NULL;
  explicit SetCommunicator(MPI_Comm made) : comm(made) {}
  SetCommunicator(const SetCommunicator&) = delete;
  SetCommunicator& operator=(const SetCommunicator&) = delete;
  ~SetCommunicator() {
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

// Kept with MPI_COMM_WORLD under the world ranks of the set, without bound: a communicator dropped
// on some ranks and made again by them alone would not be the others'.
mpi::CommunicatorCache<SetCommunicator, std::vector<int>>& set_communicators() {
  static mpi::CommunicatorCache<SetCommunicator, std::vector<int>> kept(std::numeric_limits<std::size_t>::max());
  return kept;
}

// The world ranks of `comm`'s processes in its order, or empty where one is not in MPI_COMM_WORLD.
std::vector<int> world_ranks(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  mpi::check_mpi(MPI_Comm_group(comm, &group), "MPI_Comm_group");
  mpi::check_mpi(MPI_Comm_group(MPI_COMM_WORLD, &world), "MPI_Comm_group");
  int size = 0;
  MPI_Group_size(group, &size);
  std::vector<int> ranks(static_cast<std::size_t>(size)), in_world(ranks.size());
  std::iota(ranks.begin(), ranks.end(), 0);
  MPI_Group_translate_ranks(group, size, ranks.data(), world, in_world.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  for (const int r : in_world) {
    if (r == MPI_UNDEFINED) return {};
  }
  return in_world;
}

}  // namespace

MPI_Comm meeting_communicator(int context) {
  const MPI_Comm own = context_communicator(context);
  if (own == MPI_COMM_NULL) return MPI_COMM_NULL;
  std::vector<int> set = world_ranks(own);
  if (set.empty()) return own;
  return set_communicators()
      .get(MPI_COMM_WORLD, set,
           [&] {
             MPI_Group world = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
             mpi::check_mpi(MPI_Comm_group(MPI_COMM_WORLD, &world), "MPI_Comm_group");
             MPI_Group_incl(world, static_cast<int>(set.size()), set.data(), &group);
             MPI_Comm made = MPI_COMM_NULL;
             const int code = MPI_Comm_create_group(MPI_COMM_WORLD, group, kMeetingTag, &made);
             MPI_Group_free(&group);
             MPI_Group_free(&world);
             mpi::check_mpi(code, "MPI_Comm_create_group");
             return std::make_unique<SetCommunicator>(made);
           })
      .comm;
}

}  // namespace redist::scalapack
