// A value kept with an MPI communicator between calls, as an attribute of it: made on the first
// call that asks (by every rank of the communicator together, when making it is collective), and
// deleted with the communicator (MPI_Comm_free), by release_all(), or at the start of MPI_Finalize,
// whichever comes first. MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI still
// works, and MPI_COMM_WORLD's later, when freeing a window or a communicator may no longer be
// possible: so the first use also sets an attribute on MPI_COMM_SELF whose deletion releases
// every value still kept. A communicator handle alone is no key — MPI hands freed ones out again —
// an attribute goes with its communicator. Not thread-safe (as the MPI calls that use it).
//
//   static CommunicatorCache<Area> areas;          // one keyval per cache, for the process's life
//   Area& area = areas.get(comm, [&] { return std::make_unique<Area>(comm); });
#pragma once

#include <mpi.h>

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
  /// Every value kept, oldest first.
  std::vector<void*> values() const;

 private:
  int keyval();
  static int on_delete(MPI_Comm comm, int keyval, void* value, void* self);
  static int on_finalize(MPI_Comm comm, int keyval, void* value, void* self);

  Destroy destroy_;
  int keyval_ = MPI_KEYVAL_INVALID;
  std::vector<std::pair<MPI_Comm, void*>> kept_;
};

/// A `T` kept with each communicator that asked for one (see the top of this file).
template <class T>
class CommunicatorCache {
 public:
  CommunicatorCache() : attribute_([](void* value) { delete static_cast<T*>(value); }) {}

  /// The value kept with `comm`, or null.
  T* find(MPI_Comm comm) { return static_cast<T*>(attribute_.find(comm)); }

  /// The value kept with `comm`, made by `make()` (a std::unique_ptr<T>) if there is none.
  template <class Make>
  T& get(MPI_Comm comm, Make&& make) {
    if (T* kept = find(comm)) return *kept;
    std::unique_ptr<T> made = std::forward<Make>(make)();
    T& value = *made;
    attribute_.keep(comm, made.release());
    return value;
  }

  /// Deletes every value kept (local: no communication).
  void release_all() { attribute_.release_all(); }

  /// Every value kept, oldest first.
  std::vector<T*> values() const {
    std::vector<T*> out;
    for (void* value : attribute_.values()) out.push_back(static_cast<T*>(value));
    return out;
  }

 private:
  CommunicatorAttribute attribute_;
};

}  // namespace redist::mpi
