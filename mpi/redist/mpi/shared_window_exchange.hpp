// The exchange when every rank of the communicator shares one node's memory: each rank packs its
// outgoing messages into its own segment of an MPI-3 shared-memory window, and each receiver
// unpacks straight out of the senders' segments. Two copies per byte moved — the pack and the
// unpack, MPI's own two copies through its shared-memory transport merged into them — for pieces
// of any size; the local part is copied once. When the sources all lie in one SharedArray
// (shared_array.hpp), a message whose pieces are long in the sender's storage is not packed: the
// sender publishes its run list, and the receiver copies it straight out of that storage, once.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>

#include "redist/indexing/plan.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::mpi {

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
bool use_shared_memory(MPI_Comm comm, const RankPlan& plan, std::span<const std::byte> source_local);

/// Collective over `comm`. Moves `plan` through the communicator's shared window — created on the
/// first call, grown when a call needs more, kept with the communicator (an MPI attribute, freed
/// with it or at MPI_Finalize) — and fills the pack, comm and unpack phases and message counts of
/// `report`: pack and unpack are the two copies (the local part is copied once, within one of
/// their sweeps: local_part_in_unpack), comm the synchronisation between them.
void exchange_shared_memory(MPI_Comm comm, const RankPlan& plan, Index elem_bytes,
                            std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                            RedistributeReport& report);

/// Messages whose pieces average at least this many bytes in the sender's storage are copied once
/// when the sources lie in one SharedArray; shorter ones are packed, as a receiver reads only its
/// own pieces of each line of the sender's storage, and short pieces would bring every line there
/// to every receiver. 64, or REDIST_MPI_ONCE_PIECE_BYTES; std::invalid_argument when that is not a
/// number of bytes.
Index once_piece_bytes();

/// Bytes of this rank's segment of the window kept with `comm` (0: none). Not collective.
Index shared_window_bytes(MPI_Comm comm);

/// Collective over `comm`: frees the shared window kept with it, if any; the next call counts as a
/// first one again.
void release_shared_memory(MPI_Comm comm);

}  // namespace redist::mpi
