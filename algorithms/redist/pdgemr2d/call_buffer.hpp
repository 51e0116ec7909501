// pdgemr2d's send and receive buffers, allocated (malloc) when a call starts and freed when it ends,
// and which of their pages are new to a call in a process that made the same call before. That is
// glibc's malloc on 64-bit systems (mallopt(3)), in a process doing nothing else between the calls:
// - A block of 32 MiB (DEFAULT_MMAP_THRESHOLD_MAX) or more is mapped by every allocation and
//   unmapped when freed: every page is new to every call. A mapped block of exactly 32 MiB too:
//   free() compares its size with the mapped flag set in its low bits, one more than the limit.
// - A smaller block comes from the heap. The first call mapped the blocks of 128 KiB and more, and
//   freeing them raised the mmap threshold to the largest and the trim threshold to twice that.
//   Later calls take those blocks from the heap's top, one after another (the send buffer first):
//   the first call's smaller allocations lie below, and its last one, kept for reuse, keeps them
//   from joining the top. Freed, the buffers join the top again; when it is then at the trim
//   threshold or more, free() gives it back to the kernel but for 128 KiB (M_TOP_PAD), and the next
//   call's writes beyond those touch new pages. Two buffers of about the same size (a rank in both
//   grids, its two local parts alike) do that on every call; one, or two of unlike sizes, keep
//   their pages, and so do blocks under 128 KiB, used again in their first call's places.
// A call writes each buffer from its start, one message at a time, so the pages touched are those
// of its largest message.
#pragma once

#include <algorithm>
#include <limits>

#include "redist/core/int_math.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// Blocks whose mapped size (whole pages, header included) reaches this are mapped anew by every
/// allocation (64-bit glibc).
inline constexpr Index kMappedAnewFrom = Index{32} << 20;

class CallBuffer {
 public:
  CallBuffer() = default;  ///< no buffer, or one whose pages stay the process's

  /// A buffer whose bytes from `offset` on are on pages new to every call.
  static CallBuffer fresh_from(Index offset) {
    CallBuffer b;
    b.fresh_from_ = std::max<Index>(0, offset);
    return b;
  }

  /// The first touches of writing `bytes` from the buffer's start: the bytes beyond the most written
  /// so far in this call and beyond the pages the process keeps (ByteFaulted).
  Work write(Index bytes) {
    const Index fresh = std::max<Index>(0, bytes - std::max(written_, fresh_from_));
    written_ = std::max(written_, bytes);
    return fresh > 0 ? Work(WorkKind::ByteFaulted, fresh) : Work();
  }

 private:
  Index fresh_from_ = std::numeric_limits<Index>::max();
  Index written_ = 0;
};

/// One rank's two buffers in one call.
struct CallBuffers {
  CallBuffer send, receive;
};

/// The buffers of `send_bytes` and `receive_bytes` (0: the rank has none) of a call that the process
/// made before.
CallBuffers call_buffers(Index send_bytes, Index receive_bytes);

}  // namespace redist
