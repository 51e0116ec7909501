#include "redist/redistribute/relabelling.hpp"

#include <algorithm>
#include <tuple>

#include "redist/schedule/max_weight_matching.hpp"

namespace redist {
namespace {

Index ranks_of(const LengthMatrix& v) { return std::max(v.P(), v.Q()); }

// V[rank][q], 0 for a rank that holds no source processor.
Index volume(const LengthMatrix& v, Index rank, Index q) { return rank < v.P() ? v.at(rank, q) : 0; }

Relabelling with_kept(const LengthMatrix& v, std::vector<Index> rank_of_dest) {
  Relabelling out{std::move(rank_of_dest), 0};
  for (Index q = 0; q < v.Q(); ++q) out.kept += volume(v, out.rank_of_dest[static_cast<std::size_t>(q)], q);
  return out;
}

}  // namespace

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
