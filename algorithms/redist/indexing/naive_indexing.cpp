#include "redist/indexing/naive_indexing.hpp"

#include <algorithm>
#include <utility>

namespace redist {
namespace {

// True when a processor's local storage lists its elements in increasing global index order, so
// that a local scan already yields every message in the agreed (global) order.
bool local_order_is_global_order(const Layout& layout) {
  const auto* multi = std::get_if<MultiDimLayout>(&layout.variant());
  return multi == nullptr || multi->storage() == StorageOrder::RowMajor || multi->rank() == 1;
}

Rank dest_rank_of(const RankMap& ranks, Index q) { return ranks.dest_rank(q); }
Rank source_rank_of(const RankMap& ranks, Index p) { return ranks.source_rank(p); }

// Scans processor `mine` of `own` and buckets each element by the rank owning it in `other`.
std::vector<PeerPlan> scan(const Layout& own, Index mine, const Layout& other, Rank (*rank_of)(const RankMap&, Index),
                           const RankMap& ranks, bool materialise, Work& work) {
  const Index peers = other.processors();
  const Index count = own.local_size(mine);
  std::vector<PeerPlan> plans(static_cast<std::size_t>(peers));
  for (Index k = 0; k < peers; ++k) plans[static_cast<std::size_t>(k)].peer = rank_of(ranks, k);

  if (local_order_is_global_order(own)) {
    std::vector<RunBuilder> builders;
    builders.reserve(plans.size());
    for (auto& plan : plans) builders.emplace_back(plan, materialise);
    for (Index l = 0; l < count; ++l) {
      builders[static_cast<std::size_t>(other.owner(own.global_index(mine, l)))].add(l);
    }
  } else {
    std::vector<std::vector<std::pair<Index, Index>>> buckets(plans.size());  // (global, local)
    for (Index l = 0; l < count; ++l) {
      const Index g = own.global_index(mine, l);
      buckets[static_cast<std::size_t>(other.owner(g))].emplace_back(g, l);
    }
    for (std::size_t k = 0; k < plans.size(); ++k) {
      std::sort(buckets[k].begin(), buckets[k].end());
      RunBuilder builder(plans[k], true);
      for (const auto& [g, l] : buckets[k]) builder.add(l);
    }
  }
  work.add(WorkKind::ElementScanned, count).add(WorkKind::IndexOp, 2 * count);  // naive_counted_work's count
  std::erase_if(plans, [](const PeerPlan& p) { return p.elements == 0; });
  return plans;
}

}  // namespace

RankPlan naive_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                    Work& work) {
  RankPlan plan;
  if (const auto p = ranks.source_of(me, source.processors())) {
    plan.sends = scan(source, *p, dest, dest_rank_of, ranks, materialise, work);
  }
  if (const auto q = ranks.dest_of(me, dest.processors())) {
    plan.receives = scan(dest, *q, source, source_rank_of, ranks, materialise, work);
  }
  return plan;
}

Work naive_counted_work(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me) {
  Index count = 0;
  if (const auto p = ranks.source_of(me, source.processors())) count += source.local_size(*p);
  if (const auto q = ranks.dest_of(me, dest.processors())) count += dest.local_size(*q);
  return Work(WorkKind::ElementScanned, count).add(WorkKind::IndexOp, 2 * count);
}

}  // namespace redist
