// 1-D block-cyclic, multi-dimensional and two-level layouts against direct enumeration.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "redist/layout/block_cyclic.hpp"
#include "redist/layout/multi_dim.hpp"
#include "redist/layout/two_level.hpp"

namespace redist {
namespace {

// Every global index maps to a distinct (owner, local) slot, local slots are dense, and the
// inverse map returns the global index.
void expect_bijective(const BlockCyclic& layout) {
  std::vector<Index> next_local(static_cast<std::size_t>(layout.procs()), 0);
  for (Index i = 0; i < layout.size(); ++i) {
    const Index p = layout.owner(i);
    ASSERT_LT(p, layout.procs());
    // Local indices grow in global order on each processor: they are exactly 0, 1, 2, ...
    ASSERT_EQ(layout.local_index(i), next_local[static_cast<std::size_t>(p)]++) << "i=" << i;
    ASSERT_EQ(layout.global_index(p, layout.local_index(i)), i);
  }
  for (Index p = 0; p < layout.procs(); ++p) ASSERT_EQ(layout.local_size(p), next_local[static_cast<std::size_t>(p)]);
}

TEST(BlockCyclic, PaperDefinition) {
  // CYCLIC(3) on 4: i = 13 is in block 4, on processor 0, local (13 / 12)·3 + 13 mod 3 = 4.
  const BlockCyclic layout(100, 3, 4);
  EXPECT_EQ(layout.owner(13), 0);
  EXPECT_EQ(layout.local_index(13), 4);
  EXPECT_EQ(layout.owner(5), 1);
  EXPECT_EQ(layout.local_index(5), 2);
}

TEST(BlockCyclic, RandomLayoutsAreBijective) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<Index> size(1, 500), block(1, 40), procs(1, 17);
  for (int n = 0; n < 400; ++n) {
    const Index P = procs(rng);
    const BlockCyclic layout(size(rng), block(rng), P, std::uniform_int_distribution<Index>(0, P - 1)(rng));
    SCOPED_TRACE(testing::Message() << "N=" << layout.size() << " b=" << layout.block_size() << " P=" << P
                                    << " first=" << layout.first_proc());
    expect_bijective(layout);
  }
}

TEST(BlockCyclic, BlockAndCyclicSpecialCases) {
  const auto block = BlockCyclic::block(10, 4);  // CYCLIC(3): 3 3 3 1
  EXPECT_EQ(block.block_size(), 3);
  EXPECT_EQ(block.local_size(0), 3);
  EXPECT_EQ(block.local_size(3), 1);
  const auto uneven = BlockCyclic::block(9, 4);  // CYCLIC(3): 3 3 3 0
  EXPECT_EQ(uneven.local_size(3), 0);
  const auto cyclic = BlockCyclic::cyclic(10, 4);
  EXPECT_EQ(cyclic.owner(6), 2);
  EXPECT_EQ(cyclic.local_index(6), 1);
  EXPECT_EQ(cyclic.local_size(0), 3);
  EXPECT_EQ(cyclic.local_size(3), 2);
  expect_bijective(block);
  expect_bijective(cyclic);
}

TEST(BlockCyclic, SixtyFourBitSizes) {
  const Index n = Index{1} << 33;  // 8 G elements
  const BlockCyclic layout(n, 1000, 3);
  Index total = 0;
  for (Index p = 0; p < 3; ++p) total += layout.local_size(p);
  EXPECT_EQ(total, n);
  // The last element: block 8589934 (0-based), which lands on processor 8589934 mod 3 = 1.
  EXPECT_EQ(layout.owner(n - 1), 8589934 % 3);
  EXPECT_EQ(layout.local_index(n - 1), (Index{8589934} / 3) * 1000 + (n - 1) % 1000);
  for (Index i : {n - 1, n - 1000, n / 2 + 12345, (Index{1} << 32) + 7}) {
    EXPECT_EQ(layout.global_index(layout.owner(i), layout.local_index(i)), i);
  }
  // A local size beyond 2^32 on one processor.
  const BlockCyclic big(n, Index{1} << 31, 2);
  EXPECT_EQ(big.local_size(0), Index{1} << 32);
  EXPECT_EQ(big.global_index(1, (Index{1} << 32) - 1), n - 1);
}

TEST(BlockCyclic, RejectsBadParameters) {
  EXPECT_THROW(BlockCyclic(0, 1, 1), std::invalid_argument);
  EXPECT_THROW(BlockCyclic(10, 0, 1), std::invalid_argument);
  EXPECT_THROW(BlockCyclic(10, 1, -2), std::invalid_argument);
  EXPECT_THROW(BlockCyclic(10, 1, 2, 2), std::out_of_range);
  EXPECT_THROW(BlockCyclic(10, Index{1} << 40, Index{1} << 30), OverflowError);
}

// Multi-dimensional layouts: each element has one owner and one local slot, slots are dense.
void expect_bijective(const MultiDimLayout& layout) {
  std::map<std::pair<Index, Index>, Index> seen;
  for (Index linear = 0; linear < layout.size(); ++linear) {
    const auto coords = layout.coords_of_linear(linear);
    ASSERT_EQ(layout.linear_index(coords), linear);
    const Index proc = layout.owner(coords);
    const Index offset = layout.local_offset(coords);
    ASSERT_LT(offset, layout.local_size(proc));
    ASSERT_TRUE(seen.emplace(std::make_pair(proc, offset), linear).second);
    ASSERT_EQ(layout.global_coords(proc, offset), coords);
  }
  Index total = 0;
  for (Index p = 0; p < layout.processors(); ++p) total += layout.local_size(p);
  ASSERT_EQ(total, layout.size());
}

TEST(MultiDimLayout, RandomTensorProducts) {
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<Index> extent(1, 13), block(1, 5), procs(1, 4);
  std::uniform_int_distribution<int> rank(1, 3), coin(0, 3);
  for (int n = 0; n < 200; ++n) {
    std::vector<DimMapping> dims;
    const int d = rank(rng);
    for (int k = 0; k < d; ++k) {
      const Index e = extent(rng);
      dims.push_back(coin(rng) == 0 ? DimMapping::collapsed(e) : DimMapping::distributed(BlockCyclic(e, block(rng), procs(rng))));
    }
    const MultiDimLayout layout(dims, coin(rng) % 2 ? StorageOrder::RowMajor : StorageOrder::ColumnMajor);
    expect_bijective(layout);
  }
}

TEST(MultiDimLayout, ScalapackStyleMatrix) {
  // 5×7 matrix, 2×2 blocks on a 2×3 grid, column-major local storage (ScaLAPACK's).
  const MultiDimLayout layout({DimMapping::distributed(BlockCyclic(5, 2, 2)), DimMapping::distributed(BlockCyclic(7, 2, 3))},
                              StorageOrder::ColumnMajor);
  EXPECT_EQ(layout.processors(), 6);
  EXPECT_EQ(layout.grid_coords(4), (std::vector<Index>{1, 1}));
  const std::vector<Index> element{3, 5};  // row block 1 -> grid row 1; column block 2 -> grid column 2
  EXPECT_EQ(layout.owner(element), 1 * 3 + 2);
  EXPECT_EQ(layout.local_shape(5), (std::vector<Index>{2, 2}));
  EXPECT_EQ(layout.local_offset(element), 1 + 1 * 2);  // local (1, 1), column-major in a 2×2 array
  EXPECT_EQ(layout.local_shape(0), (std::vector<Index>{3, 3}));
}

TEST(MultiDimLayout, CollapsedDimension) {
  const MultiDimLayout layout({DimMapping::distributed(BlockCyclic(6, 1, 3)), DimMapping::collapsed(4)});
  EXPECT_EQ(layout.processors(), 3);
  EXPECT_EQ(layout.local_shape(1), (std::vector<Index>{2, 4}));
  const std::vector<Index> element{4, 3};
  EXPECT_EQ(layout.owner(element), 1);
  EXPECT_EQ(layout.local_offset(element), 1 * 4 + 3);
}

// Paper 003, Fig. 2: A(i) aligned with T(3i + 1), T distributed CYCLIC(5) onto 4 processors.
TEST(TwoLevelLayout, Paper003Figure2) {
  const TwoLevelLayout layout(40, 3, 1, 5, 4);
  std::vector<Index> p0;
  for (Index l = 0; l < layout.local_size(0); ++l) p0.push_back(layout.global_index(0, l));
  EXPECT_EQ(p0, (std::vector<Index>{0, 1, 7, 13, 14, 20, 21, 27, 33, 34}));
}

// Paper 003, Fig. 8: offset 28, N_A = 30: processor 0 holds A(4, 5, 11, 12, 18, 24, 25).
TEST(TwoLevelLayout, Paper003Figure8) {
  const TwoLevelLayout layout(30, 3, 28, 5, 4);
  std::vector<Index> p0;
  for (Index l = 0; l < layout.local_size(0); ++l) p0.push_back(layout.global_index(0, l));
  EXPECT_EQ(p0, (std::vector<Index>{4, 5, 11, 12, 18, 24, 25}));
}

TEST(TwoLevelLayout, RandomMappingsMatchDirectScan) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<Index> size(1, 400), stride(1, 13), offset(0, 40), block(1, 9), procs(1, 7);
  for (int n = 0; n < 400; ++n) {
    const TwoLevelLayout layout(size(rng), stride(rng), offset(rng), block(rng), procs(rng));
    std::vector<std::vector<Index>> held(static_cast<std::size_t>(layout.procs()));
    for (Index i = 0; i < layout.size(); ++i) {
      const Index t = layout.stride() * i + layout.offset();
      held[static_cast<std::size_t>((t / layout.block_size()) % layout.procs())].push_back(i);
    }
    for (Index p = 0; p < layout.procs(); ++p) {
      const auto& mine = held[static_cast<std::size_t>(p)];
      ASSERT_EQ(layout.local_size(p), static_cast<Index>(mine.size()));
      for (std::size_t l = 0; l < mine.size(); ++l) {
        ASSERT_EQ(layout.owner(mine[l]), p);
        ASSERT_EQ(layout.local_index(mine[l]), static_cast<Index>(l));
        ASSERT_EQ(layout.global_index(p, static_cast<Index>(l)), mine[l]);
      }
    }
  }
}

TEST(TwoLevelLayout, RejectsBadParameters) {
  EXPECT_THROW(TwoLevelLayout(0, 3, 1, 5, 4), std::invalid_argument);
  EXPECT_THROW(TwoLevelLayout(10, 0, 1, 5, 4), std::invalid_argument);
  EXPECT_THROW(TwoLevelLayout(10, 3, -1, 5, 4), std::invalid_argument);
  EXPECT_THROW(TwoLevelLayout(Index{1} << 62, 8, 0, 5, 4), OverflowError);
}

}  // namespace
}  // namespace redist
