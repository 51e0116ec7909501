#include "redist/redistribute/relabelling.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <tuple>

#include "redist/core/int_math.hpp"
#include "redist/schedule/layout_lengths.hpp"
#include "redist/schedule/max_weight_matching.hpp"

namespace redist {
namespace {

std::atomic<Index> relabellings_so_far{0};  // relabellings_computed()

Index ranks_of(const LengthMatrix& v) { return std::max(v.P(), v.Q()); }

// V[rank][q], 0 for a rank that holds no source processor.
Index volume(const LengthMatrix& v, Index rank, Index q) { return rank < v.P() ? v.at(rank, q) : 0; }

Relabelling with_kept(const LengthMatrix& v, std::vector<Index> rank_of_dest) {
  Relabelling out{std::move(rank_of_dest), 0};
  for (Index q = 0; q < v.Q(); ++q) out.kept += volume(v, out.rank_of_dest[static_cast<std::size_t>(q)], q);
  return out;
}

// Adds the elements of [begin, end) to counts(owner in a, owner in b), a stretch at a time: a stretch
// ends where a block of either layout does.
void count_stretches(const BlockCyclic& a, const BlockCyclic& b, Index begin, Index end, LengthMatrix& counts,
                     Work& counted) {
  Index stretches = 0;
  for (Index i = begin; i < end; ++stretches) {
    // Steps, not block ends: the end of the block holding i may lie past the largest Index when the
    // array reaches it (N = 2^63 - 1), where i's own block end would wrap around and never be reached.
    const Index next = i + std::min({end - i, a.block_size() - i % a.block_size(), b.block_size() - i % b.block_size()});
    counts.add(a.owner(i), b.owner(i), next - i);
    i = next;
  }
  counted.add(WorkKind::IndexOp, 3 * stretches);  // the stretch's end, its two owners
}

// Elements source processor p of `a` sends destination processor q of `b` (two 1-D layouts of one
// size): whole periods L = lcm(P·r, Q·s) from paper 004's grid per period (message_lengths), the
// rest counted stretch by stretch. A rest too long to count (over 2^26 stretches) is taken as its
// share of a period: close enough to choose by, and the choice is all it is used for.
LengthMatrix one_dim_counts(const BlockCyclic& a, const BlockCyclic& b, Work& counted) {
  constexpr Index kMostStretches = Index{1} << 26;
  LengthMatrix counts(a.procs(), b.procs());
  const Index size = a.size();
  Index period = 0;  // 0: longer than the array (or than an Index holds)
  try {
    period = checked_lcm(a.period(), b.period(), "period");
  } catch (const std::overflow_error&) {
  }
  const Index periods = period > 0 && period <= size ? size / period : 0, rest_begin = periods * period;
  const bool count_rest = (size - rest_begin) / std::min(a.block_size(), b.block_size()) <= kMostStretches;
  if (periods > 0 || !count_rest) {
    // Paper 004's grid per period; a rest too long to count is its share of a period.
    const LengthMatrix per_period = message_lengths(Layout(a), Layout(b));
    counted.add(WorkKind::TableEntry, a.procs() * b.procs());
    const double share = period > 0 ? static_cast<double>(size) / static_cast<double>(period) : 1.0;
    for (Index p = 0; p < a.procs(); ++p) {
      for (Index q = 0; q < b.procs(); ++q) {
        const Index v = per_period.at(p, q);
        counts.add(p, q, count_rest ? v * periods : static_cast<Index>(static_cast<double>(v) * share));
      }
    }
  }
  if (count_rest) count_stretches(a, b, rest_begin, size, counts, counted);
  return counts;
}

// The elements message_lengths visits one at a time for a pair that is not two 1-D layouts: each
// dimension's extent for two multi-dimensional layouts of one shape, else the whole array.
Index elements_scanned(const Layout& source, const Layout& dest) {
  const auto* a = std::get_if<MultiDimLayout>(&source.variant());
  const auto* b = std::get_if<MultiDimLayout>(&dest.variant());
  if (a == nullptr || b == nullptr || a->shape() != b->shape()) return source.size();
  Index extents = 0;
  for (const Index extent : a->shape()) extents += extent;
  return extents;
}

}  // namespace

Index relabellings_computed() { return relabellings_so_far.load(std::memory_order_relaxed); }

const NameTable<RelabelMethod>& relabel_method_names() {
  static const NameTable<RelabelMethod> table(
      "relabelling", {{RelabelMethod::None, "none"}, {RelabelMethod::Exact, "exact"}, {RelabelMethod::Greedy, "greedy"}});
  return table;
}

LengthMatrix relabelling_volumes(const Layout& source, const Layout& dest, Work& counted) {
  const auto* a = std::get_if<BlockCyclic>(&source.variant());
  const auto* b = std::get_if<BlockCyclic>(&dest.variant());
  if (a != nullptr && b != nullptr) return one_dim_counts(*a, *b, counted);
  counted.add(WorkKind::ElementScanned, elements_scanned(source, dest));
  counted.add(WorkKind::TableEntry, source.processors() * dest.processors());
  return message_lengths(source, dest);
}

LengthMatrix relabelling_volumes(const Layout& source, const Layout& dest) {
  Work ignored;
  return relabelling_volumes(source, dest, ignored);
}

RankMap relabelled_ranks(const Layout& source, const Layout& dest, RelabelMethod method, Work& counted) {
  if (method == RelabelMethod::None) return RankMap::shared();
  relabellings_so_far.fetch_add(1, std::memory_order_relaxed);
  const LengthMatrix volumes = relabelling_volumes(source, dest, counted);
  counted.add(WorkKind::TableEntry, ranks_of(volumes) * volumes.Q());
  return RankMap::relabelled(method == RelabelMethod::Exact ? relabel_exact(volumes).rank_of_dest
                                                             : relabel_greedy(volumes).rank_of_dest);
}

RankMap relabelled_ranks(const Layout& source, const Layout& dest, RelabelMethod method) {
  Work ignored;
  return relabelled_ranks(source, dest, method, ignored);
}

Index kept_without_relabelling(const LengthMatrix& volumes) {
  Index kept = 0;
  for (Index q = 0; q < volumes.Q(); ++q) kept += volume(volumes, q, q);
  return kept;
}

Relabelling relabel_exact(const LengthMatrix& volumes) {
  const Index ranks = ranks_of(volumes);
  // Every (rank, destination) pair is an edge, zero-volume ones too, so that every destination
  // processor can be given a rank.
  std::vector<BipartiteEdge> edges;
  for (Index r = 0; r < ranks; ++r) {
    for (Index q = 0; q < volumes.Q(); ++q) edges.push_back({r, q, volume(volumes, r, q)});
  }
  MaxWeightMatcher matcher(ranks, volumes.Q(), volumes.max_length());
  const auto matched = matcher.match(edges, std::vector<bool>(static_cast<std::size_t>(ranks), false),
                                     std::vector<bool>(static_cast<std::size_t>(volumes.Q()), true));
  std::vector<Index> rank_of_dest(static_cast<std::size_t>(volumes.Q()), -1);
  for (const std::size_t e : matched) rank_of_dest[static_cast<std::size_t>(edges[e].right)] = edges[e].left;
  return with_kept(volumes, std::move(rank_of_dest));
}

Relabelling relabel_greedy(const LengthMatrix& volumes) {
  const Index ranks = ranks_of(volumes);
  std::vector<std::tuple<Index, Index, Index>> pairs;  // (-volume, p, q): decreasing volume
  for (Index p = 0; p < volumes.P(); ++p) {
    for (Index q = 0; q < volumes.Q(); ++q) {
      if (volumes.at(p, q) > 0) pairs.emplace_back(-volumes.at(p, q), p, q);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<Index> rank_of_dest(static_cast<std::size_t>(volumes.Q()), -1);
  std::vector<bool> rank_taken(static_cast<std::size_t>(ranks), false);
  for (const auto& [minus_volume, p, q] : pairs) {
    if (rank_taken[static_cast<std::size_t>(p)] || rank_of_dest[static_cast<std::size_t>(q)] >= 0) continue;
    rank_of_dest[static_cast<std::size_t>(q)] = p;
    rank_taken[static_cast<std::size_t>(p)] = true;
  }
  Index next = 0;
  for (Index& rank : rank_of_dest) {
    if (rank >= 0) continue;
    while (rank_taken[static_cast<std::size_t>(next)]) ++next;
    rank = next;
    rank_taken[static_cast<std::size_t>(next)] = true;
  }
  return with_kept(volumes, std::move(rank_of_dest));
}

}  // namespace redist
