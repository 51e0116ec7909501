// Multi-dimensional indexing as tensor products of 1-D plans (redist/indexing/tensor_plan.hpp):
// on random 2-D and 3-D layouts (row- and column-major storage, any first processor, shared,
// disjoint and overlapping ranks), every table/intersection method moves real data to where it
// belongs under every schedule, and exchanges exactly the element counts of the naive owner scan.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <string>

#include "every_indexing_method.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/indexing/naive_indexing.hpp"
#include "redist/indexing/tensor_plan.hpp"
#include "redist/redistribute/verified_run.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

struct Case {
  Layout source, dest;
  RankMap ranks;
};

Layout random_layout(std::mt19937_64& rng, const std::vector<Index>& shape, Index max_procs) {
  std::vector<DimMapping> dims;
  Index procs = 1;
  for (const Index extent : shape) {
    if (rng() % 5 == 0) {
      dims.push_back(DimMapping::collapsed(extent));
      continue;
    }
    const Index p = 1 + static_cast<Index>(rng() % static_cast<std::uint64_t>(std::max<Index>(1, max_procs / procs)));
    procs *= p;
    const Index block = 1 + static_cast<Index>(rng() % 7);  // Krr takes the pairs where one divides the other
    dims.push_back(DimMapping::distributed(BlockCyclic(extent, block, p, static_cast<Index>(rng() % static_cast<std::uint64_t>(p)))));
  }
  return MultiDimLayout(std::move(dims), rng() % 2 ? StorageOrder::RowMajor : StorageOrder::ColumnMajor);
}

Case random_case(std::mt19937_64& rng) {
  std::vector<Index> shape(2 + rng() % 2);
  for (auto& extent : shape) extent = 1 + static_cast<Index>(rng() % (shape.size() == 2 ? 40 : 12));
  Layout source = random_layout(rng, shape, 6), dest = random_layout(rng, shape, 6);
  const Index P = source.processors();
  const RankMap ranks = rng() % 3 == 0 ? RankMap::disjoint(P) : rng() % 2 ? RankMap::shared() : RankMap{0, P / 2};
  return {source, dest, ranks};
}

// Krr refuses block sizes that do not divide; on a matrix it says which dimension's (row
// blocks 9 -> 3 divide, column blocks 10 -> 4 do not).
TEST(TensorPlan, KrrNamesTheDimensionWhoseBlocksDoNotDivide) {
  const Layout from = MultiDimLayout({DimMapping::distributed(BlockCyclic(90, 9, 2)), DimMapping::distributed(BlockCyclic(80, 10, 2))},
                                     StorageOrder::ColumnMajor);
  const Layout to = MultiDimLayout({DimMapping::distributed(BlockCyclic(90, 3, 2)), DimMapping::distributed(BlockCyclic(80, 4, 2))},
                                   StorageOrder::ColumnMajor);
  Work work;
  try {
    make_plan(indexing_method("krr"), from, to, RankMap::shared(), 0, true, work);
    FAIL() << "krr took 10 -> 4";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("got 10 -> 4 in dimension 1 (of 2, counted from 0)"), std::string::npos) << e.what();
  }
}

TEST(TensorPlan, SameElementCountsPerPeerAsTheOwnerScan) {
  std::mt19937_64 rng(11);
  for (int k = 0; k < 60; ++k) {
    const Case c = random_case(rng);
    const Index ranks = c.ranks.ranks_needed(c.source.processors(), c.dest.processors());
    for (const IndexingMethod& method : test::every_indexing_method()) {
      if (!method.per_dimension) continue;  // it indexes the whole array at once
      const bool refused = !method_takes(method, c.source, c.dest);
      for (Rank me = 0; me < ranks; ++me) {
        if (refused) {
          Work work;
          EXPECT_THROW(tensor_plan(c.source, c.dest, c.ranks, me, true, work, method.plan), std::invalid_argument);
          continue;
        }
        Work work;
        const RankPlan naive = naive_plan(c.source, c.dest, c.ranks, me, true, work);
        const RankPlan tensor = tensor_plan(c.source, c.dest, c.ranks, me, true, work, method.plan);
        const auto counts = [](const std::vector<PeerPlan>& plans) {
          std::map<Rank, Index> out;
          for (const auto& p : plans) out[p.peer] += p.elements;
          return out;
        };
        EXPECT_EQ(counts(tensor.sends), counts(naive.sends)) << method.name << " case " << k << " rank " << me;
        EXPECT_EQ(counts(tensor.receives), counts(naive.receives)) << method.name << " case " << k << " rank " << me;
      }
    }
  }
}

TEST(TensorPlan, EveryMethodAndScheduleMovesRealDataOnRandomMultiDimLayouts) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 25; ++k) {
    const Case c = random_case(rng);
    const Rank size = static_cast<Rank>(c.ranks.ranks_needed(c.source.processors(), c.dest.processors()));
    for (const IndexingMethod& method : test::every_indexing_method()) {
      if (!method_takes(method, c.source, c.dest)) continue;  // refusal: test above
      const std::string indexing(method.name);
      for (const ScheduleChoice choice : schedule_names().values()) {
        if (choice == Strategy::WalkerOtto) continue;  // 1-D only
        const std::string schedule(name_of(choice));
        test::ThreadWorld world(size);
        std::atomic<Index> misplaced = 0, checked = 0;
        world.run([&](Transport& transport) {
          const auto result = redistribute_and_verify(transport, c.source, c.dest,
                                                      {.elem_bytes = 3, .indexing = indexing, .schedule = schedule, .ranks = c.ranks});
          misplaced += result.misplaced;
          checked += result.verified.value_or(false) ? 1 : 0;
        });
        EXPECT_EQ(misplaced.load(), 0) << indexing << " / " << schedule << " case " << k;
        EXPECT_EQ(checked.load(), size) << indexing << " / " << schedule << " case " << k;
      }
    }
  }
}

}  // namespace
}  // namespace redist
