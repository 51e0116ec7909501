// First touches: pdgemr2d's buffers where malloc maps them anew on every call, and a plan's run lists
// in the first plan a process builds (ByteFaulted, cost.byte_faulted).
#include <gtest/gtest.h>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/pdgemr2d/call_buffer.hpp"

namespace redist {
namespace {

TEST(CallBuffer, ABlockTheHeapKeepsIsNeverTouchedAfresh) {
  CallBuffer buffer(kMappedAnewFrom - 1);
  EXPECT_TRUE(buffer.write(kMappedAnewFrom - 1).empty());
}

TEST(CallBuffer, AMappedBlockFaultsOnceAPageAsItsLargestMessageReachesIt) {
  CallBuffer buffer(kMappedAnewFrom);
  EXPECT_EQ(buffer.write(1000).count(WorkKind::ByteFaulted), 1000);
  EXPECT_TRUE(buffer.write(400).empty());  // written from its start again: those pages are the call's
  EXPECT_EQ(buffer.write(5000).count(WorkKind::ByteFaulted), 4000);
  EXPECT_TRUE(buffer.write(5000).empty());
  EXPECT_TRUE(CallBuffer().write(5000).empty());  // no buffer on a rank outside the grid
}

TEST(FirstTouchWork, EveryRecordOfEveryListIsWrittenOnce) {
  const Layout source = BlockCyclic(10007, 3, 4), dest = BlockCyclic(10007, 5, 3);
  for (const IndexingMethod& method : indexing_methods()) {
    if (!method_takes(method, source, dest)) continue;
    for (Rank me = 0; me < 4; ++me) {
      Work counted;
      const RankPlan plan = make_plan(method, source, dest, RankMap::shared(), me, true, counted);
      Index records = 0;
      for (const auto* side : {&plan.sends, &plan.receives}) {
        for (const PeerPlan& peer : *side) records += static_cast<Index>(peer.runs.size());
      }
      EXPECT_EQ(first_touch_work(plan).count(WorkKind::ByteFaulted), records * static_cast<Index>(sizeof(redist::Run)))
          << std::string(method.name) << " rank " << me;
    }
  }
}

}  // namespace
}  // namespace redist
