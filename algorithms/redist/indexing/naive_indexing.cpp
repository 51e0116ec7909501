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

// The owner in `other` of each element of processor `mine` of `own` (two matrices of one shape),
// and its local offset, element by element in increasing global index (row-major) order, as
// `visit(owner, offset)`: the elements a 1-D scan visits, each owner from its dimensions' owners
// found once per local index (scan_work counts them so), not from the coordinate vectors of a
// generic multi-dimensional lookup.
template <class Visit>
void scan_in_global_order(const MultiDimLayout& own, Index mine, const MultiDimLayout& other, Visit&& visit) {
  const std::size_t n = own.rank();
  const std::vector<Index> extents = own.local_shape(mine), grid = own.grid_coords(mine);
  std::vector<std::vector<Index>> owners(n);  // by dimension and local index: the grid coordinate in `other`
  for (std::size_t d = 0; d < n; ++d) {
    owners[d].resize(static_cast<std::size_t>(extents[d]));
    for (Index i = 0; i < extents[d]; ++i) {
      owners[d][static_cast<std::size_t>(i)] = other.dim(d).layout().owner(own.dim(d).layout().global_index(grid[d], i));
    }
    if (extents[d] == 0) return;
  }
  std::vector<Index> strides(n, 1), other_grid = other.grid_shape(), other_strides(n, 1);
  if (own.storage() == StorageOrder::RowMajor) {
    for (std::size_t d = n - 1; d-- > 0;) strides[d] = strides[d + 1] * extents[d + 1];
  } else {
    for (std::size_t d = 1; d < n; ++d) strides[d] = strides[d - 1] * extents[d - 1];
  }
  for (std::size_t d = n - 1; d-- > 0;) other_strides[d] = other_strides[d + 1] * other_grid[d + 1];
  std::vector<Index> at(n, 0);
  for (;;) {
    Index offset = 0, owner_coords = 0;
    for (std::size_t d = 0; d < n; ++d) {
      offset += at[d] * strides[d];
      owner_coords += owners[d][static_cast<std::size_t>(at[d])] * other_strides[d];
    }
    visit(owner_coords, offset);
    std::size_t d = n;
    while (d > 0 && ++at[d - 1] == extents[d - 1]) at[--d] = 0;
    if (d == 0) return;
  }
}

// Two matrices of one shape, their grids numbered row-major: the fast scan above applies.
const MultiDimLayout* same_shaped_matrix(const Layout& own, const Layout& other) {
  const auto* a = std::get_if<MultiDimLayout>(&own.variant());
  const auto* b = std::get_if<MultiDimLayout>(&other.variant());
  return a != nullptr && b != nullptr && a->shape() == b->shape() ? b : nullptr;
}

// What scanning processor `mine` of `own` against `other` counts: an element scanned for every
// element; for each, its global index and its owner computed (two IndexOp), except where two
// matrices of one shape let scan_in_global_order compute them once per local index of each
// dimension and look them up for every element.
Work scan_work(const Layout& own, Index mine, const Layout& other) {
  const Index count = own.local_size(mine);
  Index computed = count;
  if (same_shaped_matrix(own, other) != nullptr) {
    computed = 0;
    for (const Index extent : std::get<MultiDimLayout>(own.variant()).local_shape(mine)) computed += extent;
  }
  return Work(WorkKind::ElementScanned, count).add(WorkKind::IndexOp, 2 * computed);
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

  if (const MultiDimLayout* matrix = same_shaped_matrix(own, other)) {
    std::vector<RunBuilder> builders;
    builders.reserve(plans.size());
    for (auto& plan : plans) builders.emplace_back(plan, materialise);
    scan_in_global_order(std::get<MultiDimLayout>(own.variant()), mine, *matrix,
                         [&](Index owner, Index offset) { builders[static_cast<std::size_t>(owner)].add(offset); });
  } else if (local_order_is_global_order(own)) {
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
  work += scan_work(own, mine, other);
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
  Work work;
  if (const auto p = ranks.source_of(me, source.processors())) work += scan_work(source, *p, dest);
  if (const auto q = ranks.dest_of(me, dest.processors())) work += scan_work(dest, *q, source);
  return work;
}

}  // namespace redist
