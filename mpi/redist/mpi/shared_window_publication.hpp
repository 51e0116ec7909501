// The message layer's shared publication (Transport::reserve_publication and the calls after it)
// over MPI, when every rank of the communicator shares one node's memory: each rank's publication
// area is its segment of an MPI-3 shared-memory window kept with the communicator, and sources
// read in place are those in one SharedArray (shared_array.hpp). The exchange written on it is the
// algorithms' (redistribute/shared_memory_exchange.hpp); this file holds what only MPI has: the
// window, its growth, the SharedArray claim and the agreement on it, the synchronisations, and
// when a call goes through the window at all (use_shared_memory).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "redist/mpi/shared_window.hpp"
#include "redist/transport/transport.hpp"

namespace redist::mpi {

class SharedStorage;

/// False when REDIST_MPI_SHARED_MEMORY=0 in this process's environment (messages then travel as
/// MPI messages, direct_exchange.hpp, even on one node).
bool shared_memory_wanted();

/// Collective over `comm`; counts the calls on it (the first call on a communicator checks where
/// its ranks live). True when all of them share one node's memory, shared_memory_wanted() (every
/// rank must agree), and either a call on `comm` has come before since it was made or released,
/// or every rank's source lies in one SharedArray (the ranks agree on it: one MPI_Allreduce). A
/// window of data costs a page fault per 4 KiB when fresh (shared memory has no huge pages here),
/// about as much as the exchange itself, so a one-off redistribution from private memory goes as
/// MPI messages, whose kept buffers are huge pages; from a SharedArray the window holds only run
/// lists.
bool use_shared_memory(MPI_Comm comm, const Transport::PublicationAsk& ask);

/// The shared window kept with a communicator (an MPI attribute, freed with it or at
/// MPI_Finalize), created on the first reservation, grown when one needs more: what MpiTransport's
/// publication calls run on. Their contracts are Transport's.
class WindowPublication {
 public:
  /// The one kept with `comm`; collective over `comm` when made (the first ask).
  static WindowPublication& of(MPI_Comm comm);
  explicit WindowPublication(MPI_Comm comm);
  ~WindowPublication();
  WindowPublication(const WindowPublication&) = delete;
  WindowPublication& operator=(const WindowPublication&) = delete;

  /// One MPI_Allreduce that both agrees on the SharedArray all sources lie in and grows the window
  /// when any rank needs more (every rank makes it anew then). Throws SharedMemoryUnavailable on
  /// every rank where the grown window cannot be had (shared_window.hpp).
  bool reserve(const Transport::PublicationNeeds& needs);
  std::byte* area() const { return shared_.mine; }
  const std::byte* area_of(Rank rank) const { return shared_.segments[static_cast<std::size_t>(rank)]; }
  /// MPI_Win_sync, MPI_Barrier, MPI_Win_sync.
  void synchronise() const;
  /// Rank `rank`'s segment of the SharedArray agreed on in the last reserve().
  const std::byte* source_of(Rank rank) const;
  /// MPI_Win_sync, then a barrier when sources were read.
  void finish(bool sources_read) const;

  /// Bytes of this rank's segment (0: none).
  Index capacity() const { return capacity_; }
  /// Frees the window (collective); the next call on the communicator counts as a first one.
  void release();

 private:
  friend bool use_shared_memory(MPI_Comm, const Transport::PublicationAsk&);
  void free_window();
  void grow(Index bytes);
  std::int64_t storage_claim(bool sends, bool receives, std::span<const std::byte> source) const;

  MPI_Comm comm_ = MPI_COMM_NULL;  // a duplicate, for the window's synchronisation
  bool one_node_ = false;
  SharedWindow shared_;
  Index capacity_ = 0;  // this rank's segment, bytes
  Index calls_ = 0;     // redistributions on the communicator since it was made or released
  const SharedStorage* storage_ = nullptr;  // the sources read in place, as the last reserve() agreed
  bool unavailable_ = false;  // a window could not be had: messages until release()
};

/// Messages whose pieces average at least this many bytes in the sender's storage are copied once
/// when the sources lie in one SharedArray (kOncePieceBytes, shared_memory_exchange.hpp). 64, or
/// REDIST_MPI_ONCE_PIECE_BYTES; std::invalid_argument when that is not a number of bytes.
Index once_piece_bytes();

/// Bytes of this rank's segment of the window kept with `comm` (0: none). Not collective.
Index shared_window_bytes(MPI_Comm comm);

/// Collective over `comm`: frees the shared window kept with it, if any; the next call counts as a
/// first one again.
void release_shared_memory(MPI_Comm comm);

}  // namespace redist::mpi
