// Storage for one rank's part of a distributed array that every rank of a node can read: a segment
// of an MPI-3 shared-memory window (MPI_Win_allocate_shared). When the source parts of a
// redistribution all live in one SharedArray, redist copies each moved byte of a message with
// long pieces once: the receiver copies it straight out of the sender's storage into its own, with
// no message buffer between (mpi/README.md, "How the data moves").
//
//   redist::mpi::SharedArray<double> a(comm, from.local_size(my_rank));   // collective
//   fill(a.span());
//   redist::mpi::Plan plan(comm, from, to, {.elem_bytes = 8});
//   plan.execute<double>(a.span(), my_b);   // report.bytes_copied_once: what went so
//
// The ranks of `comm` must share one node's memory for that; when they do not, or when the window
// cannot be had (a small /dev/shm, on any rank), the storage is private memory and redistributions
// go as messages, as with any other storage.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "redist/mpi/shared_window.hpp"
#include "redist/transport/transport.hpp"

namespace redist::mpi {

/// The untyped storage behind SharedArray. Not copyable, not movable: redistributions find it by
/// address (shared_storage_holding).
class SharedStorage {
 public:
  /// Collective over `comm`: `elements` of `elem_bytes` bytes (each rank its own count) on every
  /// rank. A negative count or a size beyond 64 bits on any rank throws std::invalid_argument on
  /// every rank, same message.
  SharedStorage(MPI_Comm comm, Index elements, Index elem_bytes);
  /// Collective over the communicator (it frees an MPI window), unless MPI is finalised already.
  ~SharedStorage();
  SharedStorage(const SharedStorage&) = delete;
  SharedStorage& operator=(const SharedStorage&) = delete;

  std::byte* data() { return mine_; }
  const std::byte* data() const { return mine_; }
  Index bytes() const { return bytes_; }
  /// True when the ranks share one node and the storage is the window's; false: private memory.
  bool shared() const { return window_.window != MPI_WIN_NULL; }

  /// The storage's own duplicate of the communicator it was made on.
  MPI_Comm comm() const { return comm_; }
  /// The same on every rank of the communicator, different for every storage a process holds.
  std::uint64_t id() const { return id_; }
  /// Rank `rank`'s segment as mapped in this process (shared storage only).
  const std::byte* segment_of(Rank rank) const { return window_.segments[static_cast<std::size_t>(rank)]; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::uint64_t id_ = 0;
  Index bytes_ = 0;
  std::byte* mine_ = nullptr;
  std::unique_ptr<std::byte[]> private_;  // when the ranks do not share a node, or shared memory cannot be had
  SharedWindow window_;                  // when they do
};

/// The shared storage (shared() true) that holds all of `bytes` bytes at `data`, or null.
const SharedStorage* shared_storage_holding(const std::byte* data, Index bytes);

/// The shared storages this process holds, oldest first.
std::span<const SharedStorage* const> shared_storages();

/// One rank's part of a distributed array of T, in storage every rank of a node can read.
template <class T>
class SharedArray {
 public:
  /// Collective over `comm`: `elements` (≥ 0, each rank its own) elements on every rank,
  /// value-initialised.
  SharedArray(MPI_Comm comm, Index elements)
      : storage_(std::make_unique<SharedStorage>(comm, elements, static_cast<Index>(sizeof(T)))), elements_(elements) {
    std::uninitialized_value_construct_n(data(), static_cast<std::size_t>(elements_));
  }

  T* data() { return reinterpret_cast<T*>(storage_->data()); }
  const T* data() const { return reinterpret_cast<const T*>(storage_->data()); }
  Index size() const { return elements_; }
  std::span<T> span() { return {data(), static_cast<std::size_t>(elements_)}; }
  std::span<const T> span() const { return {data(), static_cast<std::size_t>(elements_)}; }
  T& operator[](Index i) { return data()[i]; }
  const T& operator[](Index i) const { return data()[i]; }
  /// Whether redistributions from it can copy once (its ranks share a node).
  bool shared() const { return storage_->shared(); }

 private:
  static_assert(std::is_trivially_copyable_v<T>, "redistributions move elements as bytes");
  std::unique_ptr<SharedStorage> storage_;
  Index elements_;
};

}  // namespace redist::mpi
