#include "redist/scalapack/plan_cache.hpp"

#include <algorithm>
#include <list>
#include <set>

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

std::set<CommunicatorPlans*>& all_kept() {
  static std::set<CommunicatorPlans*> kept;
  return kept;
}

void forget(CommunicatorPlans* plans) {
  all_kept().erase(plans);
  delete plans;
}

int free_with_communicator(MPI_Comm, int, void* value, void*) {
  auto* plans = static_cast<CommunicatorPlans*>(value);
  if (all_kept().count(plans) != 0) forget(plans);  // release_plans() may have freed it already
  return MPI_SUCCESS;
}

int plans_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_with_communicator, &k, nullptr);
    return k;
  }();
  return keyval;
}

// MPI_Finalize deletes MPI_COMM_SELF's attributes first: what is kept goes while MPI still works.
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

Index extent(const std::vector<PeerPlan>& peers) {
  Index end = 0;
  for (const PeerPlan& peer : peers) {
    for (const Run& run : peer.runs) end = std::max(end, run.local_start + (run.count - 1) * run.stride + run.length);
  }
  return end;
}

CommunicatorPlans& plans_of(const mpi::MpiTransport& transport) {
  const auto at = std::find_if(all_kept().begin(), all_kept().end(),
                               [&](const CommunicatorPlans* p) { return p->transport.get() == &transport; });
  return **at;
}

}  // namespace

mpi::MpiTransport& context_transport(MPI_Comm comm) {
  release_at_finalize_once();
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, plans_keyval(), &value, &found);
  if (found != 0 && all_kept().count(static_cast<CommunicatorPlans*>(value)) != 0) {
    return *static_cast<CommunicatorPlans*>(value)->transport;
  }
  auto* plans = new CommunicatorPlans{std::make_unique<mpi::MpiTransport>(comm), {}};
  all_kept().insert(plans);
  MPI_Comm_set_attr(comm, plans_keyval(), plans);
  return *plans->transport;
}

KeptPlan& kept_plan(const mpi::MpiTransport& transport, const std::vector<std::int64_t>& key,
                    const std::function<RankPlan()>& make) {
  auto& entries = plans_of(transport).entries;
  auto at = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == key; });
  if (at == entries.end()) {
    Entry entry{key, {make(), 0, 0, std::nullopt, 0, false, nullptr}};
    entry.kept.source_extent = extent(entry.kept.plan.sends);
    entry.kept.dest_extent = extent(entry.kept.plan.receives);
    entries.push_front(std::move(entry));
    if (entries.size() > kPlansPerCommunicator) entries.pop_back();
  } else if (at != entries.begin()) {
    entries.splice(entries.begin(), entries, at);
  }
  return entries.front().kept;
}

void release_plans() {
  while (!all_kept().empty()) forget(*all_kept().begin());
}

}  // namespace redist::scalapack
