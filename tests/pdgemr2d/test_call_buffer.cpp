// First touches: pdgemr2d's buffers where malloc gives their pages back between calls (ByteFaulted,
// cost.byte_faulted).
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "redist/pdgemr2d/call_buffer.hpp"
#include "run_command.hpp"

namespace redist {
namespace {

Index first_touches(CallBuffer buffer, Index bytes) { return buffer.write(bytes).count(WorkKind::ByteFaulted); }

TEST(CallBuffer, OneBufferTheHeapKeepsIsNeverTouchedAfresh) {
  const Index mib = Index{1} << 20;
  for (const Index bytes : {Index{4096}, 8 * mib, kMappedAnewFrom - 4 * 4096}) {
    EXPECT_EQ(first_touches(call_buffers(bytes, 0).send, bytes), 0) << bytes;
    EXPECT_EQ(first_touches(call_buffers(0, bytes).receive, bytes), 0) << bytes;
    EXPECT_EQ(first_touches(call_buffers(bytes, bytes / 2).send, bytes), 0) << bytes;  // unlike sizes
    EXPECT_EQ(first_touches(call_buffers(bytes, bytes / 2).receive, bytes / 2), 0) << bytes;
  }
}

TEST(CallBuffer, TwoAlikeBuffersAreGivenBackButForTheTopPadAndTouchedAfresh) {
  const Index mib = Index{1} << 20, pad = Index{128} << 10;
  const CallBuffers pages = call_buffers(8 * mib, 8 * mib);
  EXPECT_EQ(first_touches(pages.send, 8 * mib), 8 * mib - pad);
  EXPECT_EQ(first_touches(pages.receive, 8 * mib), 8 * mib);
}

// glibc maps a block anew when its mapped size, header and whole pages included, is 32 MiB or more:
// 33550312 bytes take a chunk of 32 MiB less a page, 8 bytes more take 32 MiB.
TEST(CallBuffer, ABlockMappedAt32MiBIsMappedAnew) {
  const Index kept = 33550312, anew = kept + 8;
  EXPECT_EQ(first_touches(call_buffers(kept, 0).send, kept), 0);
  EXPECT_EQ(first_touches(call_buffers(anew, 0).send, anew), anew);
  EXPECT_EQ(first_touches(call_buffers(kept, anew).receive, anew), anew);
  EXPECT_EQ(first_touches(call_buffers(kept, anew).send, kept), 0);
}

TEST(CallBuffer, AMappedBlockFaultsOnceAPageAsItsLargestMessageReachesIt) {
  CallBuffer buffer = call_buffers(kMappedAnewFrom, 0).send;
  EXPECT_EQ(buffer.write(1000).count(WorkKind::ByteFaulted), 1000);
  EXPECT_TRUE(buffer.write(400).empty());  // written from its start again: those pages are the call's
  EXPECT_EQ(buffer.write(5000).count(WorkKind::ByteFaulted), 4000);
  EXPECT_TRUE(buffer.write(5000).empty());
  EXPECT_TRUE(CallBuffer().write(5000).empty());  // no buffer on a rank outside the grid
}

// The rule against glibc's malloc itself: a fresh process makes pdgemr2d's allocations three times
// (malloc_pages_probe), and the pages of its third call's buffers that it did not hold (mincore) are
// those the rule says that call touches first, to a page at each end. Random sizes: alike (a rank in
// both grids), unlike, one buffer, small ones under the first mmap threshold, and mapped anew.
TEST(CallBuffer, EqualsWhatGlibcsMallocLeavesOnRandomSizes) {
#if defined(REDIST_SANITIZED)
  GTEST_SKIP() << "the sanitizers replace malloc";
#else
  std::mt19937_64 random(20261206);
  const Index kib = 1024, mib = kib * kib;
  const auto uniform = [&](Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(random); };
  int alike_with_touches = 0;
  for (int k = 0; k < 40; ++k) {
    Index send = 0, receive = 0;
    switch (k % 5) {
      case 0: send = uniform(256 * kib, 24 * mib); receive = send + uniform(-32 * kib, 32 * kib); break;
      case 1: send = uniform(256 * kib, 24 * mib); receive = send * uniform(30, 85) / 100; break;
      case 2: (k % 2 ? send : receive) = uniform(4 * kib, 24 * mib); break;
      case 3: send = uniform(1 * kib, 120 * kib); receive = uniform(1 * kib, 120 * kib); break;
      default: send = uniform(33 * mib, 40 * mib); receive = uniform(1 * mib, 40 * mib); break;
    }
    if (k == 9) send = 33550312;       // a chunk of 32 MiB less a page: kept
    if (k == 19) receive = 33550320;   // a chunk of 32 MiB: mapped anew
    const auto run = test::run_command(std::string(REDIST_MALLOC_PAGES_PROBE) + " " + std::to_string(send) + " " + std::to_string(receive));
    ASSERT_EQ(run.status, 0) << run.err;
    std::istringstream fields(run.out);
    Index absent_send = -1, absent_receive = -1;
    fields >> absent_send >> absent_receive;
    const CallBuffers pages = call_buffers(send, receive);
    const Index ruled_send = first_touches(pages.send, send), ruled_receive = first_touches(pages.receive, receive);
    const std::string sizes = std::to_string(send) + " and " + std::to_string(receive) + " bytes";
    EXPECT_NEAR(absent_send, ruled_send, 2 * 4096) << sizes;
    EXPECT_NEAR(absent_receive, ruled_receive, 2 * 4096) << sizes;
    alike_with_touches += k % 5 == 0 && ruled_receive > 0;
  }
  EXPECT_EQ(alike_with_touches, 8);  // every alike pair is given back
#endif
}

}  // namespace
}  // namespace redist
