// Process relabelling: which rank each destination processor runs on, so that as
// much data as possible stays where it is. Source processor p sits on rank p; destination
// processor q is free to go to any of the max(P, Q) ranks, one processor per rank. Keeping element
// counts V[p][q] local is an assignment problem, solved exactly by a maximum-weight matching, or
// approximately by COSTA's greedy pass for grids too large for it.
#pragma once

#include <vector>

#include "redist/core/name_table.hpp"
#include "redist/indexing/rank_map.hpp"
#include "redist/layout/layout.hpp"
#include "redist/schedule/length_matrix.hpp"
#include "redist/transport/work.hpp"

namespace redist {

struct Relabelling {
  std::vector<Index> rank_of_dest;  ///< rank_of_dest[q]: the rank destination processor q runs on
  Index kept = 0;                   ///< elements that stay on their rank: Σ_q V[rank_of_dest[q]][q]
};

/// Elements kept local without relabelling: destination processor q on rank q (Σ_q V[q][q]).
Index kept_without_relabelling(const LengthMatrix& volumes);

/// A maximum-weight assignment of destination processors to ranks (MaxWeightMatcher): no other
/// assignment keeps more elements local. Deterministic.
Relabelling relabel_exact(const LengthMatrix& volumes);

/// COSTA's greedy relabelling: (p, q) pairs in decreasing volume (ties by p, then q), each taken
/// when both p and q are still free; the destination processors left over take the free ranks in
/// increasing order. O(P·Q log(P·Q)).
Relabelling relabel_greedy(const LengthMatrix& volumes);

/// How destination processors are placed on ranks: as numbered (none), by relabel_exact or by
/// relabel_greedy.
enum class RelabelMethod { None, Exact, Greedy };
const NameTable<RelabelMethod>& relabel_method_names();  ///< "none", "exact", "greedy"

/// The volumes relabelling weighs, V[p][q]: the elements source processor p sends destination
/// processor q, exact. Two 1-D layouts: whole periods from paper 004's closed form, the rest counted
/// block by block (a rest of over 2^26 blocks is taken as its share of a period); any other pair:
/// message_lengths (two multi-dimensional layouts of one shape: the product of their dimensions'
/// counts). Adds its work to `counted`: a TableEntry per entry of V, three IndexOp per stretch
/// of the rest (its end and its two owners), an ElementScanned per element message_lengths scans.
LengthMatrix relabelling_volumes(const Layout& source, const Layout& dest, Work& counted);
LengthMatrix relabelling_volumes(const Layout& source, const Layout& dest);

/// Source processor p on rank p and destination processor q on the rank `method` picks from
/// relabelling_volumes (RankMap::shared() for none). Deterministic: every rank computes the same.
/// Adds its work to `counted`: the volumes', and a TableEntry per (rank, destination) pair the
/// assignment weighs.
RankMap relabelled_ranks(const Layout& source, const Layout& dest, RelabelMethod method, Work& counted);
RankMap relabelled_ranks(const Layout& source, const Layout& dest, RelabelMethod method);

/// Where a relabelling put the destination processors, found once in a call and handed on (the
/// prediction prices it, plan_redistribution runs it without relabelling again).
struct Placement {
  RankMap ranks;       ///< the run's ranks, destination processors as the relabelling placed them
  Work work;           ///< the index work of relabelling (relabelled_ranks' count; none for none)
  double seconds = 0;  ///< how long relabelling took, on the clock that timed it (0 untimed or none)
};

/// How many relabellings (exact or greedy: relabelled_ranks with a method other than none) this
/// process has computed since it started. For tests that check each call relabels once.
Index relabellings_computed();

}  // namespace redist
