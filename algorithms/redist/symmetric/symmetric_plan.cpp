#include "redist/symmetric/symmetric_plan.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "redist/core/checks.hpp"
#include "redist/symmetric/symmetric_counts.hpp"

namespace redist {
namespace {

struct Interval {
  Index start;
  Index length;
};
using Intervals = std::vector<Interval>;

// For each peer, the runs of consecutive local lines of `me` under `mine` whose owner under `other`
// is that peer.
std::vector<Intervals> lines_by_peer(const BlockCyclic& mine, const BlockCyclic& other, Index me) {
  std::vector<Intervals> by_peer(static_cast<std::size_t>(mine.procs()));
  Index last_peer = -1;
  for (Index local = 0; local < mine.local_size(me); ++local) {
    const Index peer = other.owner(mine.global_index(me, local));
    auto& runs = by_peer[static_cast<std::size_t>(peer)];
    if (peer == last_peer) {
      ++runs.back().length;
    } else {
      runs.push_back({local, 1});
    }
    last_peer = peer;
  }
  return by_peer;
}

// Positions of the lines that travel from p to q: all of them, except under SRA (p != q) those
// whose lines q held at the source — q rebuilds these from the twins.
Intervals positions_sent(const SymmetricProblem& problem, SymmetricMethod method, Index p, Index q) {
  if (method == SymmetricMethod::Traditional || p == q) return {{0, problem.n}};
  Intervals gaps;
  Index next = 0;  // first position not yet covered
  for (Index start = q * problem.x; start < problem.n; start += problem.procs * problem.x) {
    if (start > next) gaps.push_back({next, start - next});
    next = std::min(start + problem.x, problem.n);
  }
  if (next < problem.n) gaps.push_back({next, problem.n - next});
  return gaps;
}

// Appends, in storage order, the elements (line, position) of `lines` × `positions`.
void add_elements(const SymmetricProblem& problem, Index slab_lines, const Intervals& lines, const Intervals& positions,
                  RunBuilder& runs) {
  if (problem.orientation == Orientation::RowWise) {
    for (const Interval& l : lines) {
      for (Index line = l.start; line < l.start + l.length; ++line) {
        for (const Interval& f : positions) runs.add_run(problem.offset(line, f.start, slab_lines), f.length);
      }
    }
  } else {
    for (const Interval& f : positions) {
      for (Index position = f.start; position < f.start + f.length; ++position) {
        for (const Interval& l : lines) runs.add_run(problem.offset(l.start, position, slab_lines), l.length);
      }
    }
  }
}

// The peer plans of one side: `mine` is this rank's layout on that side, `other` the peers'.
std::vector<PeerPlan> side_plans(const SymmetricProblem& problem, SymmetricMethod method, const BlockCyclic& mine,
                                 const BlockCyclic& other, Index me, bool sending, bool materialise, Work& work) {
  const auto lines = lines_by_peer(mine, other, me);
  std::vector<PeerPlan> plans;
  for (Index peer = 0; peer < problem.procs; ++peer) {
    const auto& peer_lines = lines[static_cast<std::size_t>(peer)];
    if (peer_lines.empty() && peer != me) continue;
    PeerPlan plan;
    plan.peer = static_cast<Rank>(peer);
    const Intervals positions =
        sending ? positions_sent(problem, method, me, peer) : positions_sent(problem, method, peer, me);
    const Index slab_lines = mine.local_size(me);
    // Counted piece by piece when not materialised too: the records a copy walks depend on how
    // append_piece folds them (RecordCounter).
    RunBuilder runs(plan, materialise);
    add_elements(problem, slab_lines, peer_lines, positions, runs);
    work.add(WorkKind::TableEntry, plan.run_count);
    if (plan.elements > 0 || peer == me) plans.push_back(std::move(plan));
  }
  return plans;
}

// The indexing the paper's algorithm does on one side, apart from building the tables.
void count_side_indexing(const SymmetricProblem& problem, SymmetricMethod method, Index local_lines, Work& work) {
  work.add(WorkKind::IndexOp, 2 * local_lines);
  if (method == SymmetricMethod::Sra) {
    work.add(WorkKind::IndexOp, problem.n);                                 // brother_index of every position
    work.add(WorkKind::ElementScanned, checked_mul(local_lines, problem.n, "local elements"));  // intersection
  }
}

}  // namespace

SymmetricPlan symmetric_plan(const SymmetricProblem& problem, SymmetricMethod method, Index me, bool materialise,
                             Work& work) {
  problem.validate();
  require_in_range(me, problem.procs, "rank");
  const BlockCyclic source = problem.source(), dest = problem.dest();
  SymmetricPlan plan;
  count_side_indexing(problem, method, source.local_size(me), work);
  plan.exchange.sends = side_plans(problem, method, source, dest, me, true, materialise, work);
  count_side_indexing(problem, method, dest.local_size(me), work);
  plan.exchange.receives = side_plans(problem, method, dest, source, me, false, materialise, work);
  if (method == SymmetricMethod::Sra) {
    const Index foreign_lines = dest.local_size(me) - lines_moved(problem, me, me);
    plan.rebuilt = foreign_lines * source.local_size(me);
  }
  return plan;
}

Work listing_owner_work(Index elements) { return Work(WorkKind::IndexOp, checked_mul(2, elements, "owner divisions")); }

Work rebuild_work(Index elements, Index elem_bytes) {
  Work work;
  work.add(WorkKind::ByteCopied, elements * elem_bytes).add(WorkKind::RunCopied, elements);
  return work;
}

void rebuild_from_twins(const SymmetricProblem& problem, Index me, const std::byte* source_slab, std::byte* dest_slab,
                        Index elem_bytes) {
  const BlockCyclic source = problem.source(), dest = problem.dest();
  const Index source_lines = source.local_size(me), dest_lines = dest.local_size(me);
  const auto bytes = static_cast<std::size_t>(elem_bytes);
  for (Index local = 0; local < dest_lines; ++local) {
    const Index line = dest.global_index(me, local);
    if (source.owner(line) == me) continue;  // the whole line stayed here: copied, not rebuilt
    for (Index twin = 0; twin < source_lines; ++twin) {
      const Index position = source.global_index(me, twin);
      // Element (line, position) is the twin's element at position `line`.
      std::memcpy(dest_slab + problem.offset(local, position, dest_lines) * elem_bytes,
                  source_slab + problem.offset(twin, line, source_lines) * elem_bytes, bytes);
    }
  }
}

}  // namespace redist
