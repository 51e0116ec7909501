// The naive owner scan: sender and receiver agree on every message, element by element.
#include <gtest/gtest.h>

#include <random>

#include "redist/indexing/naive_indexing.hpp"

namespace redist {
namespace {

std::vector<Index> globals_of(const PeerPlan& plan, const Layout& layout, Index proc) {
  std::vector<Index> out;
  for (const Index l : local_offsets(plan)) out.push_back(layout.global_index(proc, l));
  return out;
}

Layout random_layout(std::mt19937_64& rng, const std::vector<Index>& shape) {
  std::uniform_int_distribution<Index> block(1, 6), procs(1, 5);
  if (shape.size() == 1) return BlockCyclic(shape[0], block(rng), procs(rng));
  std::vector<DimMapping> dims;
  for (Index e : shape) dims.push_back(DimMapping::distributed(BlockCyclic(e, block(rng), procs(rng))));
  return MultiDimLayout(dims, rng() % 2 ? StorageOrder::RowMajor : StorageOrder::ColumnMajor);
}

void expect_consistent(const Layout& source, const Layout& dest, const RankMap& ranks) {
  const Index P = source.processors(), Q = dest.processors();
  const Index total_ranks = ranks.ranks_needed(P, Q);
  std::vector<RankPlan> plans;
  for (Rank r = 0; r < total_ranks; ++r) {
    Work work;
    plans.push_back(naive_plan(source, dest, ranks, r, true, work));
  }
  Index moved = 0;
  for (Index p = 0; p < P; ++p) {
    const Rank sender = ranks.source_rank(p);
    Index sent = 0;
    for (const auto& send : plans[static_cast<std::size_t>(sender)].sends) {
      const auto q = ranks.dest_of(send.peer, Q);
      ASSERT_TRUE(q.has_value());
      const auto& receives = plans[static_cast<std::size_t>(send.peer)].receives;
      const auto match = std::find_if(receives.begin(), receives.end(), [&](const PeerPlan& r) { return r.peer == sender; });
      ASSERT_NE(match, receives.end());
      const auto sent_globals = globals_of(send, source, p);
      ASSERT_TRUE(std::is_sorted(sent_globals.begin(), sent_globals.end()));
      ASSERT_EQ(sent_globals, globals_of(*match, dest, *q));
      for (Index g : sent_globals) ASSERT_EQ(dest.owner(g), *q);
      ASSERT_EQ(send.run_count, piece_count(send.runs));
      sent += send.elements;
    }
    ASSERT_EQ(sent, source.local_size(p));
    moved += sent;
  }
  ASSERT_EQ(moved, source.size());
}

TEST(NaiveIndexing, OneDimensionalPlansAgree) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<Index> size(1, 300);
  for (int n = 0; n < 200; ++n) {
    const std::vector<Index> shape{size(rng)};
    const Layout source = random_layout(rng, shape), dest = random_layout(rng, shape);
    const RankMap ranks = n % 3 == 0 ? RankMap::shared() : n % 3 == 1 ? RankMap::disjoint(source.processors()) : RankMap{0, 1};
    expect_consistent(source, dest, ranks);
  }
}

TEST(NaiveIndexing, MultiDimensionalPlansAgree) {
  std::mt19937_64 rng(12);
  std::uniform_int_distribution<Index> extent(1, 17);
  for (int n = 0; n < 150; ++n) {
    const std::vector<Index> shape = n % 2 ? std::vector<Index>{extent(rng), extent(rng)}
                                           : std::vector<Index>{extent(rng), extent(rng), extent(rng) % 4 + 1};
    const Layout source = random_layout(rng, shape), dest = random_layout(rng, shape);
    expect_consistent(source, dest, n % 2 ? RankMap::shared() : RankMap::disjoint(source.processors()));
  }
}

TEST(NaiveIndexing, PhantomPlansCountTheSameWork) {
  const Layout source = BlockCyclic(1000, 10, 5), dest = BlockCyclic(1000, 2, 4);
  for (Rank r = 0; r < 5; ++r) {
    Work real_work, phantom_work;
    const auto real = naive_plan(source, dest, RankMap::shared(), r, true, real_work);
    const auto phantom = naive_plan(source, dest, RankMap::shared(), r, false, phantom_work);
    ASSERT_EQ(real.sends.size(), phantom.sends.size());
    for (std::size_t k = 0; k < real.sends.size(); ++k) {
      EXPECT_EQ(real.sends[k].elements, phantom.sends[k].elements);
      EXPECT_EQ(real.sends[k].run_count, phantom.sends[k].run_count);
      EXPECT_TRUE(phantom.sends[k].runs.empty());
    }
    for (std::size_t k = 0; k < kWorkKinds; ++k) {
      EXPECT_EQ(real_work.count(static_cast<WorkKind>(k)), phantom_work.count(static_cast<WorkKind>(k)));
    }
  }
}

}  // namespace
}  // namespace redist
