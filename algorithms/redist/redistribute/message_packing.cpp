#include "redist/redistribute/message_packing.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "redist/redistribute/copy_run.hpp"

namespace redist {
namespace {

// Pack side: a run's local pieces into a contiguous buffer; returns the end of what was written.
std::byte* gather(const Run& run, const std::byte* local, Index elem_bytes, std::byte* to) {
  const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
  const std::byte* from = local + run.local_start * elem_bytes;
  if (run.count == 1) {
    copy_run(to, from, bytes);
  } else {
    copy_pieces(to, static_cast<Index>(bytes), from, run.stride * elem_bytes, run.count, bytes);
  }
  return to + run.count * static_cast<Index>(bytes);
}

// Unpack side: a contiguous buffer into a run's local pieces; returns the end of what was read.
const std::byte* scatter(const Run& run, const std::byte* from, Index elem_bytes, std::byte* local) {
  const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
  std::byte* to = local + run.local_start * elem_bytes;
  if (run.count == 1) {
    copy_run(to, from, bytes);
  } else {
    copy_pieces(to, run.stride * elem_bytes, from, static_cast<Index>(bytes), run.count, bytes);
  }
  return from + run.count * static_cast<Index>(bytes);
}

// Visits the runs of every plan, local storage a cache-sized window at a time for all plans
// together, each plan's runs in its own order: move(local byte offset, message cursor, bytes). A
// strided run is cut at window ends like the rest (it may span the whole local array).
template <typename Byte, typename Move>
void sweep_windows(std::span<const PeerPlan* const> plans, Index elem_bytes, Index local_bytes, std::span<Byte* const> buffers,
                   Move move) {
  constexpr Index kWindowBytes = Index{1} << 15;  // a window stays in L1/L2 while all peers visit it
  const Index window = std::max<Index>(1, kWindowBytes / elem_bytes);
  const Index size = local_bytes / elem_bytes;
  struct Cursor {
    std::size_t run = 0;  // current run of the plan
    Index piece = 0;      // its next piece
  };
  std::vector<Cursor> cursors(plans.size());
  std::vector<Byte*> at_of(buffers.begin(), buffers.end());
  for (Index end = window; end - window < size; end += window) {
    for (std::size_t k = 0; k < plans.size(); ++k) {
      // Cursors in locals: stores through std::byte* may alias anything, vector elements included.
      const std::vector<Run>& runs = plans[k]->runs;
      const Run* run = runs.data() + cursors[k].run;
      const Run* const last = runs.data() + runs.size();
      Index piece = cursors[k].piece;
      Byte* at = at_of[k];
      for (; run != last; ++run, piece = 0) {
        const auto bytes = static_cast<std::size_t>(run->length * elem_bytes);
        Index start = run->local_start + piece * run->stride;
        for (; piece < run->count && start < end; ++piece, start += run->stride, at += bytes) {
          move(static_cast<std::size_t>(start * elem_bytes), at, bytes);
        }
        if (piece < run->count) break;  // the rest lies beyond this window
      }
      cursors[k] = {static_cast<std::size_t>(run - runs.data()), piece};
      at_of[k] = at;
    }
  }
}

std::vector<const PeerPlan*> addresses(std::span<const PeerPlan> plans) {
  std::vector<const PeerPlan*> out;
  for (const PeerPlan& plan : plans) out.push_back(&plan);
  return out;
}

}  // namespace

void pack(const PeerPlan& plan, std::span<const std::byte> local, Index elem_bytes, std::byte* buffer) {
  for (const Run& run : plan.runs) buffer = gather(run, local.data(), elem_bytes, buffer);
}

void pack_messages(std::span<const PeerPlan> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers) {
  pack_messages(addresses(sends), local, elem_bytes, buffers);
}

void pack_messages(std::span<const PeerPlan* const> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers) {
  sweep_windows(sends, elem_bytes, static_cast<Index>(local.size()), buffers,
                [&](std::size_t offset, std::byte* message, std::size_t bytes) { copy_run(message, local.data() + offset, bytes); });
}

void unpack_messages(std::span<const PeerPlan> recvs, std::span<const std::byte* const> buffers, Index elem_bytes,
                     std::span<std::byte> local) {
  unpack_messages(addresses(recvs), buffers, elem_bytes, local);
}

void unpack_messages(std::span<const PeerPlan* const> recvs, std::span<const std::byte* const> buffers,
                     Index elem_bytes, std::span<std::byte> local) {
  if (recvs.size() == 1) return unpack(*recvs[0], buffers[0], elem_bytes, local);
  sweep_windows(recvs, elem_bytes, static_cast<Index>(local.size()), buffers,
                [&](std::size_t offset, const std::byte* message, std::size_t bytes) { copy_run(local.data() + offset, message, bytes); });
}

void unpack(const PeerPlan& plan, const std::byte* buffer, Index elem_bytes, std::span<std::byte> local) {
  // One message's runs are scattered over local storage: fetch the lines a few runs ahead.
  constexpr std::size_t kAhead = 16;
  const auto& runs = plan.runs;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i + kAhead < runs.size()) __builtin_prefetch(local.data() + runs[i + kAhead].local_start * elem_bytes, 1);
    buffer = scatter(runs[i], buffer, elem_bytes, local.data());
  }
}

}  // namespace redist
