// Multi-dimensional indexing as tensor products of 1-D plans (redist/indexing/tensor_plan.hpp):
// on random 2-D and 3-D layouts (row- and column-major storage, any first processor, shared,
// disjoint and overlapping ranks), every table/intersection method moves real data to where it
// belongs under every schedule, and exchanges exactly the element counts of the naive owner scan.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <string>

#include "redist/indexing/tensor_plan.hpp"
#include "redist/redistribute/naive_indexing.hpp"
#include "redist/redistribute/verified_run.hpp"
#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/pitfalls_indexing.hpp"
#include "redist/indexing/prylli_indexing.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

struct Case {
  Layout source, dest;
  RankMap ranks;
};

// Krr indexes kr <-> r pairs only (in every dimension); it must refuse the others cleanly.
bool krr_takes(const Layout& source, const Layout& dest) {
  const auto& a = std::get<MultiDimLayout>(source.variant());
  const auto& b = std::get<MultiDimLayout>(dest.variant());
  for (std::size_t d = 0; d < a.rank(); ++d) {
    const Index r = a.dim(d).layout().block_size(), s = b.dim(d).layout().block_size();
    if (r % s != 0 && s % r != 0) return false;
  }
  return true;
}

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

RankPlan one_dim(const char* method, const Layout& s, const Layout& d, const RankMap& m, Rank me, bool real, Work& w) {
  const std::string name = method;
  if (name == "krr") return krr_plan(s, d, m, me, real, w);
  if (name == "pitfalls") return pitfalls_plan(s, d, m, me, real, w);
  return prylli_plan(s, d, m, me, real, w);
}

TEST(TensorPlan, SameElementCountsPerPeerAsTheOwnerScan) {
  std::mt19937_64 rng(11);
  for (int k = 0; k < 60; ++k) {
    const Case c = random_case(rng);
    const Index ranks = c.ranks.ranks_needed(c.source.processors(), c.dest.processors());
    for (const char* method : {"krr", "pitfalls", "prylli"}) {
      const bool refused = std::string(method) == "krr" && !krr_takes(c.source, c.dest);
      for (Rank me = 0; me < ranks; ++me) {
        if (refused) {
          Work work;
          EXPECT_THROW(tensor_plan(c.source, c.dest, c.ranks, me, true, work,
                                   [&](const Layout& s, const Layout& d, const RankMap& m, Rank r, bool real, Work& w) {
                                     return one_dim(method, s, d, m, r, real, w);
                                   }),
                       std::invalid_argument);
          continue;
        }
        Work work;
        const RankPlan naive = naive_plan(c.source, c.dest, c.ranks, me, true, work);
        const RankPlan tensor = tensor_plan(c.source, c.dest, c.ranks, me, true, work,
                                            [&](const Layout& s, const Layout& d, const RankMap& m, Rank r, bool real,
                                                Work& w) { return one_dim(method, s, d, m, r, real, w); });
        const auto counts = [](const std::vector<PeerPlan>& plans) {
          std::map<Rank, Index> out;
          for (const auto& p : plans) out[p.peer] += p.elements;
          return out;
        };
        EXPECT_EQ(counts(tensor.sends), counts(naive.sends)) << method << " case " << k << " rank " << me;
        EXPECT_EQ(counts(tensor.receives), counts(naive.receives)) << method << " case " << k << " rank " << me;
      }
    }
  }
}

TEST(TensorPlan, EveryMethodAndScheduleMovesRealDataOnRandomMultiDimLayouts) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 25; ++k) {
    const Case c = random_case(rng);
    const Rank size = static_cast<Rank>(c.ranks.ranks_needed(c.source.processors(), c.dest.processors()));
    for (const char* indexing : {"naive", "krr", "pitfalls", "prylli"}) {
      if (std::string(indexing) == "krr" && !krr_takes(c.source, c.dest)) continue;  // refusal: test above
      for (const char* schedule : {"async", "caterpillar", "stepwise", "greedy"}) {
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
