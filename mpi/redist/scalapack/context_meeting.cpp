#include "redist/scalapack/context_meeting.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
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

// The tag of the lists the ranks of a call send each other before they meet: high, out of the way
// of the small tags programs use on MPI_COMM_WORLD (every MPI allows at least 32767).
constexpr int kProcessListTag = 0x7ed2;

std::string listed(const std::vector<int>& ranks) {
  std::string text;
  for (const int r : ranks) text += (text.empty() ? "" : ",") + std::to_string(r);
  return text;
}

// Says once per job that two ranks' ICTXTs name other processes, and ends the job. Of the ranks
// that find it, the lowest world rank in both lists says it (every rank that finds it compares the
// same two lists, so all choose the same one, and that one finds it too: it reads the other list);
// the rest wait for its MPI_Abort, and end the job themselves if it is late.
[[noreturn]] void end_job_for_other_processes(const std::vector<int>& mine, const std::vector<int>& theirs, int me,
                                              int them, const std::string& routine, const std::string& argument) {
  std::vector<int> both;
  for (const int r : mine) {
    if (std::find(theirs.begin(), theirs.end(), r) != theirs.end()) both.push_back(r);
  }
  const int teller = *std::min_element(both.begin(), both.end());  // me and them are in both
  if (me != teller) std::this_thread::sleep_for(std::chrono::seconds(5));
  const int low = std::min(me, them), high = std::max(me, them);
  const std::vector<int>& low_list = me == low ? mine : theirs;
  const std::vector<int>& high_list = me == low ? theirs : mine;
  std::fprintf(stderr,
               "%s: %s: world rank %d's context names processes %s, world rank %d's names %s (every rank must pass "
               "a context over the same processes in the same order); ending the job, as those ranks share no "
               "communicator to refuse the call on\n",
               routine.c_str(), argument.c_str(), low, listed(low_list).c_str(), high, listed(high_list).c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

// Sends `set` (this call's processes, in world ranks) to each of them and reads the list each sent;
// returns when all named the same processes in the same order. Reads by polling each sender: a rank
// whose list leaves this one out sends nothing here, and waiting on it first would hide the list
// that shows the difference.
void check_same_processes(const std::vector<int>& set, const std::string& routine, const std::string& argument) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  std::vector<MPI_Request> sends;
  std::vector<int> pending;
  for (const int r : set) {
    if (r == me) continue;
    sends.emplace_back();
    MPI_Isend(set.data(), static_cast<int>(set.size()), MPI_INT, r, kProcessListTag, MPI_COMM_WORLD, &sends.back());
    pending.push_back(r);
  }
  std::vector<int> theirs;
  for (int idle = 0; !pending.empty();) {
    bool read = false;
    for (auto it = pending.begin(); it != pending.end();) {
      int arrived = 0;
      MPI_Message message = MPI_MESSAGE_NULL;
      MPI_Status status;
      MPI_Improbe(*it, kProcessListTag, MPI_COMM_WORLD, &arrived, &message, &status);
      if (arrived == 0) {
        ++it;
        continue;
      }
      int count = 0;
      MPI_Get_count(&status, MPI_INT, &count);
      theirs.assign(static_cast<std::size_t>(std::max(count, 0)), 0);
      MPI_Mrecv(theirs.data(), count, MPI_INT, &message, MPI_STATUS_IGNORE);
      if (theirs != set) end_job_for_other_processes(set, theirs, me, *it, routine, argument);
      it = pending.erase(it);
      read = true;
    }
    // A late rank is waited for without a busy core: spin briefly, then sleep a little longer each time.
    idle = read ? 0 : idle + 1;
    if (idle > 100) std::this_thread::sleep_for(std::chrono::microseconds(std::min(idle - 100, 500)));
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
}

}  // namespace

MPI_Comm meeting_communicator(int context, const std::string& routine, const std::string& argument) {
  const MPI_Comm own = context_communicator(context);
  if (own == MPI_COMM_NULL) return MPI_COMM_NULL;
  std::vector<int> set = world_ranks(own);
  if (set.empty()) return own;
  check_same_processes(set, routine, argument);
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
