// redist's exchange where the ranks share one node's memory (Transport::shares_memory): nothing
// travels. Each rank packs its messages to the others into its publication area, all synchronise
// once, and each receiver unpacks its messages straight out of its senders' areas: two copies per
// byte moved (the pack and the unpack; a message-passing library's shared-memory transport makes
// the same two inside its transfer) for pieces of any size; the local part is copied once, in the
// sweep local_part_in_unpack chooses (mostly its finer side's). When every rank's source lies in
// storage the others read in place (the ranks agree on it in reserve_publication: MPI's
// SharedArray, the simulator's `sources: shared`), a message whose pieces are long in the sender's
// storage is not packed: the sender publishes its run list, and the receiver copies it straight
// out of that storage, once.
//
// Written once against the message layer: MPI runs it over a shared window (mpi/), the simulator
// over areas its actors share, prediction.cpp prices it.
#pragma once

#include <span>

#include "redist/indexing/rank_plan.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/redistribute/work_accounting.hpp"

namespace redist {

/// Messages whose pieces average at least this many bytes in the sender's storage are copied once
/// where the sources are read in place; shorter ones are packed, as a receiver reads only its own
/// pieces of each line of the sender's storage, and short pieces would bring every line there to
/// every receiver.
inline constexpr Index kOncePieceBytes = 64;

/// Whether `message` (a send plan) is copied once rather than packed where the sources are read in
/// place. Reads the counts when the runs are not materialised (phantom runs).
bool copied_once(const PeerPlan& message, Index elem_bytes, Index once_piece_bytes = kOncePieceBytes);

/// What this rank asks the message layer before its exchange of `plan` (Transport::publication_offer).
Transport::PublicationAsk publication_ask(const RankPlan& plan, Rank me, std::span<const std::byte> source_local);

/// Collective over all ranks of `transport`, whose publication_offer offered shared publication. Moves `plan` (this rank's part)
/// and fills the pack, comm and unpack phases, the message counts and bytes_copied_once of
/// `report`: pack and unpack are the two copies (the local part within one of their sweeps), comm
/// the agreement and synchronisations around them. Charges the copies as `accounting` counts them
/// (a message copied once as its unpacking).
void exchange_shared_memory(Transport& transport, const RankPlan& plan, Index elem_bytes,
                            std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                            const WorkAccounting& accounting, RedistributeReport& report,
                            Index once_piece_bytes = kOncePieceBytes);

}  // namespace redist
