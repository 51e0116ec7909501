// Run-list memory kept between plans (run_memory.hpp): a plan's large blocks come back to the next
// plan instead of fresh pages, the blocks kept with those in use are never more than the most ever
// used at once, and release_run_memory frees them.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "redist/indexing/rank_plan.hpp"

namespace redist {
namespace {

// One block of `runs` runs (reserved: no growth, whose old and new blocks are briefly both in use).
RunList list_of(std::size_t runs) {
  RunList list;
  list.reserve(runs);
  for (std::size_t k = 0; k < runs; ++k) list.push_back({static_cast<Index>(3 * k), 1});  // irregular: no folding
  return list;
}

TEST(RunMemory, TheNextPlanGetsTheBlocksOfThePlanBefore) {
  release_run_memory();
  const redist::Run* first = nullptr;
  {
    const RunList list = list_of(100000);  // 3.2 MB: kept
    first = list.data();
  }
  EXPECT_GE(run_memory::kept_bytes(), std::size_t{100000} * sizeof(redist::Run));
  const RunList again = list_of(100000);
  EXPECT_EQ(again.data(), first);  // the same block, its pages already mapped
  EXPECT_EQ(again, list_of(100000));
}

TEST(RunMemory, SmallListsAreLeftToTheHeap) {
  release_run_memory();
  { const RunList list = list_of(100); }  // 3.2 KB
  EXPECT_EQ(run_memory::kept_bytes(), 0U);
}

TEST(RunMemory, KeepsNoMoreThanTheMostEverUsedAtOnce) {
  release_run_memory();
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::size_t> size(1000, 200000), lists(1, 6);
  std::size_t most = 0;
  for (int round = 0; round < 40; ++round) {
    std::vector<RunList> plan;
    std::size_t used = 0;
    for (std::size_t k = lists(rng); k > 0; --k) {
      plan.push_back(list_of(size(rng)));
      used += std::bit_ceil(plan.back().capacity() * sizeof(redist::Run));
    }
    most = std::max(most, used);
    EXPECT_LE(run_memory::kept_bytes(), most) << "round " << round;
  }
  EXPECT_GT(run_memory::kept_bytes(), 0U);
  EXPECT_LE(run_memory::kept_bytes(), most);
  release_run_memory();
  EXPECT_EQ(run_memory::kept_bytes(), 0U);
}

}  // namespace
}  // namespace redist
