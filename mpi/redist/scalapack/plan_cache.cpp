#include "redist/scalapack/plan_cache.hpp"

#include <algorithm>

#include <list>
#include <map>

#include "redist/scalapack/scalapack.hpp"

namespace redist::scalapack {
namespace {

constexpr std::size_t kPlansPerCommunicator = 16;

struct Entry {
  std::vector<std::int64_t> key;
  KeptPlan kept;
};

struct CommunicatorPlans {
  std::unique_ptr<mpi::MpiTransport> transport;
  std::list<Entry> entries;  // most recently used first
};

std::map<MPI_Comm, CommunicatorPlans>& kept() {
  static std::map<MPI_Comm, CommunicatorPlans> plans;
  return plans;
}

Index extent(const std::vector<PeerPlan>& peers) {
  Index end = 0;
  for (const PeerPlan& peer : peers) {
    for (const Run& run : peer.runs) end = std::max(end, run.local_start + (run.count - 1) * run.stride + run.length);
  }
  return end;
}

// MPI_Finalize deletes MPI_COMM_SELF's attributes first: the kept transports go while MPI still works.
int release_at_finalize(MPI_Comm, int, void*, void*) {
  release_plans();
  return MPI_SUCCESS;
}

void release_at_finalize_once() {
  static const bool registered = [] {
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release_at_finalize, &keyval, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
    return true;
  }();
  (void)registered;
}

}  // namespace

mpi::MpiTransport& context_transport(MPI_Comm comm) {
  release_at_finalize_once();
  CommunicatorPlans& on_comm = kept()[comm];
  if (on_comm.transport) {
    // BLACS may have freed the communicator and MPI handed its handle to another group since.
    int same = MPI_UNEQUAL;
    MPI_Comm_compare(on_comm.transport->comm(), comm, &same);
    if (same != MPI_CONGRUENT) on_comm = CommunicatorPlans{};
  }
  if (!on_comm.transport) on_comm.transport = std::make_unique<mpi::MpiTransport>(comm);
  return *on_comm.transport;
}

KeptPlan& kept_plan(const mpi::MpiTransport& transport, const std::vector<std::int64_t>& key,
                    const std::function<RankPlan()>& make) {
  auto on_comm = std::find_if(kept().begin(), kept().end(),
                              [&](const auto& entry) { return entry.second.transport.get() == &transport; });
  auto& entries = on_comm->second.entries;
  auto at = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == key; });
  if (at == entries.end()) {
    Entry entry{key, {make(), 0, 0, std::nullopt}};
    entry.kept.source_extent = extent(entry.kept.plan.sends);
    entry.kept.dest_extent = extent(entry.kept.plan.receives);
    entries.push_front(std::move(entry));
    if (entries.size() > kPlansPerCommunicator) entries.pop_back();
  } else if (at != entries.begin()) {
    entries.splice(entries.begin(), entries, at);
  }
  return entries.front().kept;
}

void release_plans() { kept().clear(); }

}  // namespace redist::scalapack
