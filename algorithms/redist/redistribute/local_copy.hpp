// The part of a redistribution that stays on one rank, copied once: straight from source storage to
// destination storage, without the pack into a message buffer and the unpack out of it.
#pragma once

#include <cstddef>
#include <span>

#include "redist/indexing/plan.hpp"

namespace redist {

/// Copies the elements `send` (this rank's message to itself, runs of `source_local`) to where
/// `receive` (its message from itself, runs of `dest_local`) puts them. Same result as pack(send)
/// followed by unpack(receive), with one copy per byte. Throws std::invalid_argument when the two
/// plans hold different numbers of elements.
void copy_local(const PeerPlan& send, const PeerPlan& receive, std::span<const std::byte> source_local,
                std::span<std::byte> dest_local, Index elem_bytes);

/// The part of `plan` that stays on rank `me` (its message to itself), if any, copied as above.
void copy_local(const RankPlan& plan, Rank me, std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                Index elem_bytes);

}  // namespace redist
