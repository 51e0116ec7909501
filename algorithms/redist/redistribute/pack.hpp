// Packing and unpacking along the runs of a peer plan, with the work they represent.
#pragma once

#include <cstddef>
#include <span>

#include "redist/redistribute/plan.hpp"

namespace redist {

/// The modelled work of moving a peer plan's elements: bytes copied and runs started, plus what
/// the indexing method's own copy loop adds (PeerPlan::copy_overhead).
inline Work copy_work(const PeerPlan& plan, Index elem_bytes) {
  Work work;
  work.add(WorkKind::ByteCopied, plan.elements * elem_bytes).add(WorkKind::RunCopied, plan.run_count);
  work += plan.copy_overhead;
  return work;
}

/// Copies the plan's runs of `local` (elements of elem_bytes bytes) into `buffer`, in order.
void pack(const PeerPlan& plan, std::span<const std::byte> local, Index elem_bytes, std::byte* buffer);

/// Copies `buffer` into the plan's runs of `local`, in order.
void unpack(const PeerPlan& plan, const std::byte* buffer, Index elem_bytes, std::span<std::byte> local);

}  // namespace redist
