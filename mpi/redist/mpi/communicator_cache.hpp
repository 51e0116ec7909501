// Values kept with an MPI communicator between calls, as an attribute of it, and the one rule by
// which redist lets them go (docs/ARCHITECTURE.md §8, "Kept between calls"):
// - a value is made on the first call that asks (by every rank of the communicator together, when
//   making it is collective);
// - a cache keeps at most `per_communicator` values with each communicator, under keys that every
//   rank passes alike (so that all find or miss together); making one more drops the least
//   recently used — on every rank, as they use the values in the same order;
// - every value goes with its communicator (MPI_Comm_free), by release_all(), or at the start of
//   MPI_Finalize, whichever comes first. MPI_Finalize deletes MPI_COMM_SELF's attributes first,
//   while MPI still works, and MPI_COMM_WORLD's later, when freeing a window or a communicator may
//   no longer be possible: so the first use also sets an attribute on MPI_COMM_SELF whose deletion
//   releases every value still kept.
// A communicator handle alone is no key — MPI hands freed ones out again — an attribute goes with
// its communicator. Not thread-safe (as the MPI calls that use it).
//
//   static CommunicatorCache<Area> areas;                      // one value per communicator
//   Area& area = areas.get(comm, [&] { return std::make_unique<Area>(comm); });
//   static CommunicatorCache<Plan, Key> plans(16);             // the 16 most recently used
//   Plan& plan = plans.get(comm, key, [&] { return std::make_unique<Plan>(...); });
#pragma once

#include <mpi.h>

#include <cstddef>
#include <list>
#include <memory>
#include <utility>
#include <vector>

namespace redist::mpi {

/// The untyped mechanism under CommunicatorCache: one keyval, the values it keeps and their owner.
class CommunicatorAttribute {
 public:
  using Destroy = void (*)(void*);
  explicit CommunicatorAttribute(Destroy destroy) : destroy_(destroy) {}
  CommunicatorAttribute(const CommunicatorAttribute&) = delete;
  CommunicatorAttribute& operator=(const CommunicatorAttribute&) = delete;

  /// The value kept with `comm`, or null.
  void* find(MPI_Comm comm);
  /// Keeps `value` (owned from now on) with `comm`, which keeps none yet.
  void keep(MPI_Comm comm, void* value);
  /// Deletes every value kept, each communicator's attribute with it.
  void release_all();

 private:
  int keyval();
  static int on_delete(MPI_Comm comm, int keyval, void* value, void* self);
  static int on_finalize(MPI_Comm comm, int keyval, void* value, void* self);

  Destroy destroy_;
  int keyval_ = MPI_KEYVAL_INVALID;
  std::vector<std::pair<MPI_Comm, void*>> kept_;
};

/// The key of a cache that keeps one value per communicator.
struct WholeCommunicator {
  friend bool operator==(WholeCommunicator, WholeCommunicator) = default;
};

/// `T`s kept with the communicators that asked for them, at most `per_communicator` with each (see
/// the top of this file).
template <class T, class Key = WholeCommunicator>
class CommunicatorCache {
 public:
  explicit CommunicatorCache(std::size_t per_communicator = 1)
      : per_communicator_(per_communicator < 1 ? 1 : per_communicator),
        attribute_([](void* kept) { delete static_cast<Kept*>(kept); }) {}

  /// The value kept with `comm` under `key`, or null; it becomes the most recently used.
  T* find(MPI_Comm comm, const Key& key = {}) {
    auto* kept = static_cast<Kept*>(attribute_.find(comm));
    if (kept == nullptr) return nullptr;
    auto& values = kept->values;
    for (auto at = values.begin(); at != values.end(); ++at) {
      if (!(at->first == key)) continue;
      if (at != values.begin()) values.splice(values.begin(), values, at);
      return values.front().second.get();
    }
    return nullptr;
  }

  /// The value kept with `comm` under `key`, made by `make()` (a std::unique_ptr<T>) if there is
  /// none; a value made beyond the bound drops the least recently used.
  template <class Make>
  T& get(MPI_Comm comm, const Key& key, Make&& make) {
    if (T* value = find(comm, key)) return *value;
    std::unique_ptr<T> made = std::forward<Make>(make)();
    auto* kept = static_cast<Kept*>(attribute_.find(comm));
    if (kept == nullptr) {
      auto fresh = std::make_unique<Kept>();
      kept = fresh.get();
      attribute_.keep(comm, fresh.release());
    }
    kept->values.emplace_front(key, std::move(made));
    if (kept->values.size() > per_communicator_) kept->values.pop_back();
    return *kept->values.front().second;
  }

  /// The one value kept with `comm` (a cache of one value per communicator).
  template <class Make>
  T& get(MPI_Comm comm, Make&& make) {
    return get(comm, Key{}, std::forward<Make>(make));
  }

  /// Deletes every value kept (local: no communication).
  void release_all() { attribute_.release_all(); }

 private:
  struct Kept {
    std::list<std::pair<Key, std::unique_ptr<T>>> values;  // most recently used first
  };
  std::size_t per_communicator_;
  CommunicatorAttribute attribute_;
};

}  // namespace redist::mpi
