// Where the source processors (P) and destination processors (Q) sit among the transport's ranks.
// The two sets may be the same ranks, overlap, or be disjoint (paper 000: 50 sources, 40 destinations).
#pragma once

#include <algorithm>
#include <optional>

#include "redist/transport/transport.hpp"

namespace redist {

struct RankMap {
  Index source_first = 0;  ///< source processor p is rank source_first + p
  Index dest_first = 0;    ///< destination processor q is rank dest_first + q

  /// Sources and destinations share ranks 0, 1, ...
  static RankMap shared() { return {0, 0}; }
  /// Destinations follow the P sources: ranks P, P+1, ...
  static RankMap disjoint(Index P) { return {0, P}; }

  Rank source_rank(Index p) const { return static_cast<Rank>(source_first + p); }
  Rank dest_rank(Index q) const { return static_cast<Rank>(dest_first + q); }
  /// Ranks a run needs for P sources and Q destinations.
  Index ranks_needed(Index P, Index Q) const { return std::max(source_first + P, dest_first + Q); }

  /// The source processor a rank plays, if any.
  std::optional<Index> source_of(Rank rank, Index P) const { return index_in(rank, source_first, P); }
  /// The destination processor a rank plays, if any.
  std::optional<Index> dest_of(Rank rank, Index Q) const { return index_in(rank, dest_first, Q); }

 private:
  static std::optional<Index> index_in(Rank rank, Index first, Index count) {
    if (rank < first || rank >= first + count) return std::nullopt;
    return rank - first;
  }
};

}  // namespace redist
