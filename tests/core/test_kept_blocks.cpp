// The rule for memory a process keeps between calls (core/kept_blocks.hpp): blocks come back to the
// next caller, kept and used blocks together never exceed the most ever in use at once, and the
// least recently returned go first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "redist/core/kept_blocks.hpp"

namespace redist {
namespace {

void* plain(std::size_t bytes) { return std::malloc(bytes); }

TEST(KeptBlocks, TheNextCallGetsTheBlockBack) {
  KeptBlocks blocks(plain, false);
  const KeptBlocks::Block first = blocks.take(1000);
  blocks.give_back(first);
  EXPECT_EQ(blocks.kept_bytes(), 1000U);
  const KeptBlocks::Block again = blocks.take(800);  // the smallest kept block that fits
  EXPECT_EQ(again.data, first.data);
  EXPECT_EQ(again.capacity, 1000U);
  EXPECT_EQ(blocks.kept_bytes(), 0U);
  blocks.give_back(again);
}

TEST(KeptBlocks, ExactFitHandsABlockOutOnlyForItsOwnCapacity) {
  KeptBlocks blocks(plain, true);
  const KeptBlocks::Block big = blocks.take(2048);
  blocks.give_back(big);
  const KeptBlocks::Block small = blocks.take(1024);
  EXPECT_NE(small.data, big.data);
  EXPECT_EQ(small.capacity, 1024U);
  blocks.give_back(small);
}

TEST(KeptBlocks, KeepsNoMoreThanTheMostInUseAtOnceTheOldestFreedFirst) {
  KeptBlocks blocks(plain, true);
  // A call with two blocks of 100, then one with two of 200: most in use at once, 400.
  KeptBlocks::Block a = blocks.take(100), b = blocks.take(100);
  blocks.give_back(a);
  blocks.give_back(b);
  const KeptBlocks::Block c = blocks.take(200), d = blocks.take(200);
  blocks.give_back(c);  // 200 kept + 200 in use + the two of 100: over 400, the older ones go
  EXPECT_EQ(blocks.kept_bytes(), 200U);
  blocks.give_back(d);
  EXPECT_EQ(blocks.kept_bytes(), 400U);
  const KeptBlocks::Block again = blocks.take(200);
  EXPECT_TRUE(again.data == c.data || again.data == d.data);  // the newer calls' blocks stayed
  blocks.give_back(again);
  blocks.release();
  EXPECT_EQ(blocks.kept_bytes(), 0U);
}

TEST(KeptBlocks, AnyOrderOfTakingAndGivingBackKeepsWithinTheMost) {
  for (const bool exact_fit : {false, true}) {
    KeptBlocks blocks(plain, exact_fit);
    std::mt19937_64 rng(11);
    std::vector<KeptBlocks::Block> used;
    std::size_t in_use = 0, most = 0;
    for (int step = 0; step < 20000; ++step) {
      if (used.empty() || rng() % 2 == 0) {
        used.push_back(blocks.take(std::size_t{1} << (10 + rng() % 6)));
        in_use += used.back().capacity;
        most = std::max(most, in_use);
      } else {
        const std::size_t k = rng() % used.size();
        in_use -= used[k].capacity;
        blocks.give_back(used[k]);
        used[k] = used.back();
        used.pop_back();
        EXPECT_LE(blocks.kept_bytes() + in_use, most);
      }
    }
    for (const KeptBlocks::Block& block : used) blocks.give_back(block);
    EXPECT_LE(blocks.kept_bytes(), most);
  }
}

}  // namespace
}  // namespace redist
