#include "redist/indexing/tensor_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace redist {
namespace {

// One side of one dimension: this processor's 1-D coordinate and its 1-D plans with each peer
// coordinate (peer = the peer's coordinate in its own grid dimension).
using DimPeers = std::vector<PeerPlan>;

// Dimensions from slowest to fastest in the message order (the source's storage order).
std::vector<std::size_t> message_dim_order(const MultiDimLayout& source) {
  std::vector<std::size_t> order(source.rank());
  for (std::size_t k = 0; k < order.size(); ++k) {
    order[k] = source.storage() == StorageOrder::RowMajor ? k : order.size() - 1 - k;
  }
  return order;
}

// Local strides of processor `proc`'s storage.
std::vector<Index> local_strides(const MultiDimLayout& own, Index proc) {
  const auto shape = own.local_shape(proc);
  const std::size_t n = shape.size();
  std::vector<Index> strides(n, 1);
  if (own.storage() == StorageOrder::RowMajor) {
    for (std::size_t d = n - 1; d-- > 0;) strides[d] = strides[d + 1] * shape[d + 1];
  } else {
    for (std::size_t d = 1; d < n; ++d) strides[d] = strides[d - 1] * shape[d - 1];
  }
  return strides;
}

// Emits the runs of the product of per-dimension runs (fastest dimension strided where regular),
// merging plain runs that touch.
class ProductRuns {
 public:
  ProductRuns(PeerPlan& plan, bool materialise, const std::vector<Index>& strides, const std::vector<std::size_t>& order)
      : plan_(plan), materialise_(materialise), strides_(strides), order_(order) {}

  void emit(const std::vector<const PeerPlan*>& dims) {
    fastest_ = &dims[order_.back()]->runs;  // regular stretches already strided (append_piece)
    if (materialise_) plan_.runs.reserve(static_cast<std::size_t>(run_bound(dims)));
    walk(dims, 0, 0);
  }

 private:
  void walk(const std::vector<const PeerPlan*>& dims, std::size_t k, Index base) {
    const std::size_t d = order_[k];
    const Index stride = strides_[d];
    if (k + 1 == order_.size()) {
      for (const Run& run : *fastest_) emit_fastest(run, base, stride);
      return;
    }
    for (const Run& run : dims[d]->runs) {
      for (Index c = 0; c < run.count; ++c) {
        const Index start = run.local_start + c * run.stride;
        for (Index i = 0; i < run.length; ++i) walk(dims, k + 1, base + (start + i) * stride);
      }
    }
  }

  // At most one run per fastest-dimension run (or piece, when that dimension is not the storage's
  // fastest) for every element of the other dimensions: reserved at once, since growing a list of
  // 10^5-10^6 runs copies it over and over (a third of the index time measured on MPI).
  Index run_bound(const std::vector<const PeerPlan*>& dims) const {
    const std::size_t fastest = order_.back();
    Index bound = strides_[fastest] == 1 ? static_cast<Index>(fastest_->size()) : dims[fastest]->run_count;
    for (std::size_t k = 0; k + 1 < order_.size(); ++k) bound *= dims[order_[k]]->elements;
    return bound;
  }

  // One (possibly strided) run of the fastest message dimension, whose local stride is `stride`.
  void emit_fastest(const Run& run, Index base, Index stride) {
    if (stride == 1) {
      add(base + run.local_start, run.length, run.count, run.stride);
      return;
    }
    for (Index c = 0; c < run.count; ++c) add(base + (run.local_start + c * run.stride) * stride, 1, run.length, stride);
  }

  void add(Index start, Index length, Index count, Index stride) {
    if (count == 1 || length == 0) {
      add_plain(start, length * count);
      return;
    }
    plan_.elements += length * count;
    plan_.run_count += count;
    ++plan_.record_count;
    if (materialise_) plan_.runs.push_back({start, length, count, stride});
    end_ = -1;
  }

  void add_plain(Index start, Index length) {
    plan_.elements += length;
    if (end_ >= 0 && start == end_) {
      if (materialise_) plan_.runs.back().length += length;
    } else {
      ++plan_.run_count;
      ++plan_.record_count;
      if (materialise_) plan_.runs.push_back({start, length});
    }
    end_ = start + length;
  }

  const RunList* fastest_ = nullptr;

  PeerPlan& plan_;
  bool materialise_;
  const std::vector<Index>& strides_;
  const std::vector<std::size_t>& order_;
  Index end_ = -1;
};

struct Side {
  const MultiDimLayout& own;
  const MultiDimLayout& peer;
  Index proc;                         // my processor in `own`
  bool sending;
};

// Peer coordinates of one dimension: 1-D plans of the sender (me = coordinate) or the receiver.
DimPeers dim_peers(const MultiDimLayout& source, const MultiDimLayout& dest, std::size_t d, Index coord, bool sending,
                   const OneDimPlanner& planner, Work& work) {
  const BlockCyclic& from = source.dim(d).layout();
  const BlockCyclic& to = dest.dim(d).layout();
  const RankMap apart = RankMap::disjoint(from.procs());  // 1-D ranks: sources 0.., destinations P..
  const Rank me = static_cast<Rank>(sending ? coord : from.procs() + coord);
  RankPlan plan = planner(Layout(from), Layout(to), apart, me, true, work);
  DimPeers peers = sending ? std::move(plan.sends) : std::move(plan.receives);
  for (auto& p : peers) p.peer = sending ? p.peer - static_cast<Rank>(from.procs()) : p.peer;
  return peers;
}

std::vector<PeerPlan> side_plans(const MultiDimLayout& source, const MultiDimLayout& dest, const RankMap& ranks,
                                 const Side& side, bool materialise, Work& work, const OneDimPlanner& planner) {
  const std::size_t n = side.own.rank();
  const auto coords = side.own.grid_coords(side.proc);
  std::vector<DimPeers> per_dim(n);
  for (std::size_t d = 0; d < n; ++d) {
    per_dim[d] = dim_peers(source, dest, d, coords[d], side.sending, planner, work);
  }
  const auto strides = local_strides(side.own, side.proc);
  const auto order = message_dim_order(source);
  std::vector<PeerPlan> plans;
  std::vector<std::size_t> pick(n, 0);
  std::vector<const PeerPlan*> dims(n);
  std::vector<Index> peer_coords(n);
  for (std::size_t d = 0; d < n; ++d) {
    if (per_dim[d].empty()) return plans;
  }
  for (;;) {  // every combination of per-dimension peers
    for (std::size_t d = 0; d < n; ++d) {
      dims[d] = &per_dim[d][pick[d]];
      peer_coords[d] = dims[d]->peer;
    }
    const Index peer_proc = side.peer.proc_of_grid_coords(peer_coords);
    PeerPlan plan;
    plan.peer = side.sending ? ranks.dest_rank(peer_proc) : ranks.source_rank(peer_proc);
    ProductRuns(plan, materialise, strides, order).emit(dims);
    // A product record's offset is computed once, whatever pieces it strides over.
    work.add(WorkKind::IndexOp, plan.record_count);
    plans.push_back(std::move(plan));
    std::size_t d = n;
    while (d > 0 && ++pick[d - 1] == per_dim[d - 1].size()) pick[--d] = 0;
    if (d == 0) break;
  }
  std::sort(plans.begin(), plans.end(), [](const PeerPlan& a, const PeerPlan& b) { return a.peer < b.peer; });
  return plans;
}

}  // namespace

bool tensor_plan_applies(const Layout& source, const Layout& dest) {
  const auto* from = std::get_if<MultiDimLayout>(&source.variant());
  const auto* to = std::get_if<MultiDimLayout>(&dest.variant());
  return from != nullptr && to != nullptr && from->shape() == to->shape();
}

RankPlan tensor_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                     Work& work, const OneDimPlanner& planner) {
  if (!tensor_plan_applies(source, dest)) {
    throw std::invalid_argument("tensor indexing needs two multi-dimensional layouts of the same shape");
  }
  const auto& from = std::get<MultiDimLayout>(source.variant());
  const auto& to = std::get<MultiDimLayout>(dest.variant());
  // Every rank checks that the method takes every dimension, taking part or not, so that all
  // ranks of a run refuse together (a rank with nothing to do must not wait for the others).
  // A refusal names the dimension (a ScaLAPACK user's rows or columns).
  for (std::size_t d = 0; d < from.rank(); ++d) {
    Work ignored;
    try {
      planner(Layout(from.dim(d).layout()), Layout(to.dim(d).layout()), RankMap::shared(), -1, false, ignored);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(e.what()) + " in dimension " + std::to_string(d) + " (of " +
                                  std::to_string(from.rank()) + ", counted from 0)");
    }
  }
  RankPlan plan;
  plan.listed_by_record = true;
  if (const auto p = ranks.source_of(me, from.processors())) {
    plan.sends = side_plans(from, to, ranks, {from, to, *p, true}, materialise, work, planner);
  }
  if (const auto q = ranks.dest_of(me, to.processors())) {
    plan.receives = side_plans(from, to, ranks, {to, from, *q, false}, materialise, work, planner);
  }
  return plan;
}

}  // namespace redist
