// Packing and unpacking along the runs of a peer plan, with the work they represent.
#pragma once

#include <cstddef>
#include <span>

#include "redist/indexing/rank_plan.hpp"

namespace redist {

/// The modelled work of moving a peer plan's elements: bytes copied and runs started, plus what
/// the indexing method's own copy loop adds (PeerPlan::extra_copies), and the records walked.
inline Work copy_work(const PeerPlan& plan, Index elem_bytes) {
  Work work;
  work.add(WorkKind::ByteCopied, plan.elements * elem_bytes)
      .add(WorkKind::RunCopied, plan.run_count + plan.extra_copies)
      .add(WorkKind::RecordCopied, plan.record_count);
  return work;
}

/// Copies the plan's runs of `local` (elements of elem_bytes bytes) into `buffer`, in order.
void pack(const PeerPlan& plan, std::span<const std::byte> local, Index elem_bytes, std::byte* buffer);

/// Packs every message at once: sends[k] into buffers[k]. Same result as pack() per message, but
/// local storage is swept once, a cache-sized window at a time, for all peers together — rather
/// than once per peer with a stride of about the number of peers. Any run order is correct; runs
/// in increasing local order (1-D layouts) get the cache benefit.
void pack_messages(std::span<const PeerPlan> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers);
/// The same for some of a rank's send plans.
void pack_messages(std::span<const PeerPlan* const> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers);

/// pack_messages, with the rank's message to itself copied in the same sweep of the source: from
/// `local_send`'s runs of `local` straight to `local_receive`'s runs of `dest_local` (copy_local,
/// local_copy.hpp). Source storage is then read once for all its pieces, which pays when they are
/// the finer side of the local part, or where the destination's short pieces would break
/// interleaved lines (local_part_in_unpack). Throws std::invalid_argument when the two local plans
/// hold different numbers of elements.
void pack_messages(std::span<const PeerPlan* const> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers, const PeerPlan& local_send, const PeerPlan& local_receive,
                   std::span<std::byte> dest_local);

/// Copies `buffer` into the plan's runs of `local`, in order.
void unpack(const PeerPlan& plan, const std::byte* buffer, Index elem_bytes, std::span<std::byte> local);

/// Unpacks every message at once: buffers[k] into recvs[k]'s runs, local storage swept a window at
/// a time for all peers together, so each cache line is filled whole while it is in cache (one
/// message alone writes scattered pieces of lines, each fetched from memory first). For when all
/// messages are at hand; same result as unpack() per message.
void unpack_messages(std::span<const PeerPlan> recvs, std::span<const std::byte* const> buffers, Index elem_bytes,
                     std::span<std::byte> local);
/// The same for some of a rank's receive plans (the messages that have arrived together).
void unpack_messages(std::span<const PeerPlan* const> recvs, std::span<const std::byte* const> buffers,
                     Index elem_bytes, std::span<std::byte> local);

/// A message a receiver copies straight out of its sender's storage, as the local part is copied:
/// the receiver's plan of it, and the sender's runs of `source` (the sender's local storage as
/// this process sees it: its own, or another rank's in shared memory). Both hold the same elements.
struct DirectCopy {
  const PeerPlan* receive;
  std::span<const Run> source_runs;
  const std::byte* source;
};

/// unpack_messages, with the `copies` copied from their sources in the same sweep of the
/// destination (the local part among them, if wanted). Each destination line is then filled whole,
/// by packed and copied messages together, while it is in cache.
void unpack_and_copy(std::span<const PeerPlan* const> recvs, std::span<const std::byte* const> buffers,
                     std::span<const DirectCopy> copies, Index elem_bytes, std::span<std::byte> local);

}  // namespace redist
