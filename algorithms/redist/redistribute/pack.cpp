#include "redist/redistribute/pack.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace redist {
namespace {

template <std::size_t N>
void copy_fixed(std::byte* to, const std::byte* from) {
  std::memcpy(to, from, N);  // a constant size: compiled to plain moves
}

// Runs are often a few elements long (paper 000: runs of 2 single-precision values). Short ones
// are copied with two fixed-size moves that may overlap, instead of a library call per run.
void copy_run(std::byte* to, const std::byte* from, std::size_t n) {
  if (n > 64) {
    std::memcpy(to, from, n);
  } else if (n >= 32) {
    copy_fixed<32>(to, from);
    copy_fixed<32>(to + n - 32, from + n - 32);
  } else if (n >= 16) {
    copy_fixed<16>(to, from);
    copy_fixed<16>(to + n - 16, from + n - 16);
  } else if (n >= 8) {
    copy_fixed<8>(to, from);
    copy_fixed<8>(to + n - 8, from + n - 8);
  } else if (n >= 4) {
    copy_fixed<4>(to, from);
    copy_fixed<4>(to + n - 4, from + n - 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}

// Copies the pieces of a strided run (count > 1): a tight loop, no record per piece.
template <class Copy>
void for_each_piece(const Run& run, Index elem_bytes, Copy copy) {
  const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
  for (Index c = 0; c < run.count; ++c) copy((run.local_start + c * run.stride) * elem_bytes, bytes);
}

// Pack side: local pieces into a contiguous buffer; returns the end of what was written.
std::byte* gather(const Run& run, const std::byte* local, Index elem_bytes, std::byte* to) {
  if (run.count == 1) {
    const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
    copy_run(to, local + run.local_start * elem_bytes, bytes);
    return to + bytes;
  }
  if (run.length * elem_bytes == 8) {  // one double (or two floats) per piece: the cyclic case
    const std::byte* from = local + run.local_start * elem_bytes;
    const Index step = run.stride * elem_bytes;
    for (Index c = 0; c < run.count; ++c, to += 8, from += step) copy_fixed<8>(to, from);
    return to;
  }
  for_each_piece(run, elem_bytes, [&](Index offset, std::size_t bytes) {
    copy_run(to, local + offset, bytes);
    to += bytes;
  });
  return to;
}

// Unpack side: a contiguous buffer into local pieces; returns the end of what was read.
const std::byte* scatter(const Run& run, const std::byte* from, Index elem_bytes, std::byte* local) {
  if (run.count == 1) {
    const auto bytes = static_cast<std::size_t>(run.length * elem_bytes);
    copy_run(local + run.local_start * elem_bytes, from, bytes);
    return from + bytes;
  }
  if (run.length * elem_bytes == 8) {
    std::byte* to = local + run.local_start * elem_bytes;
    const Index step = run.stride * elem_bytes;
    for (Index c = 0; c < run.count; ++c, from += 8, to += step) copy_fixed<8>(to, from);
    return from;
  }
  for_each_piece(run, elem_bytes, [&](Index offset, std::size_t bytes) {
    copy_run(local + offset, from, bytes);
    from += bytes;
  });
  return from;
}

// Visits the runs of every plan, local storage a cache-sized window at a time for all plans
// together, each plan's runs in its own order: move(k, local byte offset, message cursor, bytes).
template <typename Byte, typename Move>
void sweep_windows(std::span<const PeerPlan> plans, Index elem_bytes, Index local_bytes, std::span<Byte* const> buffers,
                   Move move) {
  constexpr Index kWindowBytes = Index{1} << 15;  // a window stays in L1/L2 while all peers visit it
  const Index window = std::max<Index>(1, kWindowBytes / elem_bytes);
  const Index size = local_bytes / elem_bytes;
  std::vector<std::size_t> next(plans.size(), 0);
  std::vector<Byte*> cursor(buffers.begin(), buffers.end());
  for (Index end = window; end - window < size; end += window) {
    for (std::size_t k = 0; k < plans.size(); ++k) {
      // Cursors in locals: stores through std::byte* may alias anything, vector elements included.
      const Run* run = plans[k].runs.data() + next[k];
      const Run* const last = plans[k].runs.data() + plans[k].runs.size();
      Byte* at = cursor[k];
      for (; run != last && run->local_start < end; ++run) {
        const auto bytes = static_cast<std::size_t>(run->length * elem_bytes);
        for (Index c = 0; c < run->count; ++c) {  // a strided run: count pieces, stride apart
          move(static_cast<std::size_t>((run->local_start + c * run->stride) * elem_bytes), at, bytes);
          at += bytes;
        }
      }
      next[k] = static_cast<std::size_t>(run - plans[k].runs.data());
      cursor[k] = at;
    }
  }
}

}  // namespace

void pack(const PeerPlan& plan, std::span<const std::byte> local, Index elem_bytes, std::byte* buffer) {
  for (const Run& run : plan.runs) buffer = gather(run, local.data(), elem_bytes, buffer);
}

void pack_messages(std::span<const PeerPlan> sends, std::span<const std::byte> local, Index elem_bytes,
                   std::span<std::byte* const> buffers) {
  sweep_windows(sends, elem_bytes, static_cast<Index>(local.size()), buffers,
                [&](std::size_t offset, std::byte* message, std::size_t bytes) { copy_run(message, local.data() + offset, bytes); });
}

void unpack_messages(std::span<const PeerPlan> recvs, std::span<const std::byte* const> buffers, Index elem_bytes,
                     std::span<std::byte> local) {
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
