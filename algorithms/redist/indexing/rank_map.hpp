// Where the source processors (P) and destination processors (Q) sit among the transport's ranks.
// The two sets may be the same ranks, overlap, or be disjoint (paper 000: 50 sources, 40 destinations),
// and the destination processors may be relabelled: placed on the ranks that already hold most of
// their data (redistribute/relabelling.hpp), as COSTA does.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "redist/transport/transport.hpp"

namespace redist {

struct RankMap {
  Index source_first = 0;  ///< source processor p is rank source_first + p
  Index dest_first = 0;    ///< destination processor q is rank dest_first + q, unless relabelled:
  /// when not empty, destination processor q is rank dest_ranks[q] (distinct ranks; dest_first unused).
  std::vector<Index> dest_ranks = {};

  /// Sources and destinations share ranks 0, 1, ...
  static RankMap shared() { return {0, 0, {}}; }
  /// Destinations follow the P sources: ranks P, P+1, ...
  static RankMap disjoint(Index P) { return {0, P, {}}; }
  /// Source p on rank p, destination q on rank rank_of_dest[q].
  static RankMap relabelled(std::vector<Index> rank_of_dest) { return {0, 0, std::move(rank_of_dest)}; }

  bool is_relabelled() const { return !dest_ranks.empty(); }
  Rank source_rank(Index p) const { return static_cast<Rank>(source_first + p); }
  Rank dest_rank(Index q) const {
    return static_cast<Rank>(is_relabelled() ? dest_ranks[static_cast<std::size_t>(q)] : dest_first + q);
  }
  /// Ranks a run needs for P sources and Q destinations.
  Index ranks_needed(Index P, Index Q) const {
    const Index dest_end = is_relabelled() ? *std::max_element(dest_ranks.begin(), dest_ranks.end()) + 1 : dest_first + Q;
    return std::max(source_first + P, dest_end);
  }

  /// The source processor a rank plays, if any.
  std::optional<Index> source_of(Rank rank, Index P) const { return index_in(rank, source_first, P); }
  /// The destination processor a rank plays, if any.
  std::optional<Index> dest_of(Rank rank, Index Q) const {
    if (!is_relabelled()) return index_in(rank, dest_first, Q);
    const auto at = std::find(dest_ranks.begin(), dest_ranks.end(), Index{rank});
    if (at == dest_ranks.end()) return std::nullopt;
    return static_cast<Index>(at - dest_ranks.begin());
  }

  friend bool operator==(const RankMap&, const RankMap&) = default;

 private:
  static std::optional<Index> index_in(Rank rank, Index first, Index count) {
    if (rank < first || rank >= first + count) return std::nullopt;
    return rank - first;
  }
};

}  // namespace redist
