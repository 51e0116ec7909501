// pdgemr2d's send and receive buffers, allocated (malloc) and freed on every call. glibc's malloc
// maps a block of 32 MiB or more anew on every allocation and unmaps it when it is freed (its
// dynamic mmap threshold stops at DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB on 64-bit systems: mallopt(3)),
// so every call's writes to such a buffer touch its pages for the first time, each a page fault; a
// smaller block is served from the heap again after the first call, its pages kept. A call writes
// each buffer from its start, one message at a time, so the pages touched are those of its largest
// message.
#pragma once

#include <algorithm>

#include "redist/core/int_math.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// The smallest block glibc's malloc maps anew on every allocation (64-bit systems).
inline constexpr Index kMappedAnewFrom = Index{32} << 20;

class CallBuffer {
 public:
  CallBuffer() = default;
  explicit CallBuffer(Index allocated_bytes) : mapped_anew_(allocated_bytes >= kMappedAnewFrom) {}

  /// The first touches of writing `bytes` from the buffer's start: the bytes beyond the most written
  /// so far in this call (ByteFaulted), where the block is mapped anew.
  Work write(Index bytes) {
    const Index fresh = mapped_anew_ ? std::max<Index>(0, bytes - written_) : 0;
    written_ = std::max(written_, bytes);
    return fresh > 0 ? Work(WorkKind::ByteFaulted, fresh) : Work();
  }

 private:
  bool mapped_anew_ = false;
  Index written_ = 0;
};

}  // namespace redist
