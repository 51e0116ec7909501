#include "redist/scalapack/plan_cache.hpp"

#include <algorithm>
#include <list>
#include <memory>

#include "redist/mpi/communicator_cache.hpp"
#include "redist/scalapack/scalapack.hpp"

namespace redist::scalapack {
namespace {

constexpr std::size_t kPlansPerCommunicator = 16;

struct Entry {
  std::vector<std::int64_t> key;
  KeptPlan kept;
};

// What redist keeps with one of BLACS' communicators, as an MPI attribute of it: made by all its
// ranks in one collective call and freed with it (BLACS' Cblacs_gridexit), so that every rank
// has it or none does — a communicator handle alone is no key, MPI hands freed ones out again.
struct CommunicatorPlans {
  std::unique_ptr<mpi::MpiTransport> transport;
  std::list<Entry> entries;  // most recently used first
};

// Kept with each communicator, freed with it, at MPI_Finalize or by release_plans()
// (redist/mpi/communicator_cache.hpp).
mpi::CommunicatorCache<CommunicatorPlans>& all_kept() {
  static mpi::CommunicatorCache<CommunicatorPlans> kept;
  return kept;
}

Index extent(const std::vector<PeerPlan>& peers) {
  Index end = 0;
  for (const PeerPlan& peer : peers) {
    for (const Run& run : peer.runs) end = std::max(end, run.local_start + (run.count - 1) * run.stride + run.length);
  }
  return end;
}

CommunicatorPlans& plans_of(const mpi::MpiTransport& transport) {
  const auto kept = all_kept().values();
  return **std::find_if(kept.begin(), kept.end(),
                        [&](const CommunicatorPlans* p) { return p->transport.get() == &transport; });
}

}  // namespace

mpi::MpiTransport& context_transport(MPI_Comm comm) {
  return *all_kept()
              .get(comm, [comm] {
                return std::make_unique<CommunicatorPlans>(
                    CommunicatorPlans{std::make_unique<mpi::MpiTransport>(comm), {}});
              })
              .transport;
}

KeptPlan& kept_plan(const mpi::MpiTransport& transport, const std::vector<std::int64_t>& key,
                    const std::function<RankPlan()>& make) {
  auto& entries = plans_of(transport).entries;
  auto at = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == key; });
  if (at == entries.end()) {
    Entry entry{key, {make(), 0, 0, nullptr, 0, false, nullptr}};
    entry.kept.source_extent = extent(entry.kept.plan.sends);
    entry.kept.dest_extent = extent(entry.kept.plan.receives);
    entries.push_front(std::move(entry));
    if (entries.size() > kPlansPerCommunicator) entries.pop_back();
  } else if (at != entries.begin()) {
    entries.splice(entries.begin(), entries, at);
  }
  return entries.front().kept;
}

void release_plans() { all_kept().release_all(); }

}  // namespace redist::scalapack
