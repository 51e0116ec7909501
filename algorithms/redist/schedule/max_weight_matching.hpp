// Maximum-weight matching of a bipartite graph among the matchings that cover a required set of
// vertices: the step of paper 004's stepwise strategy (cover every vertex of maximum degree) and of
// its greedy strategy (cover nothing), §4.5.
//
// Method. The problem becomes a minimum-cost perfect matching on the "doubled" graph: left side
// = left vertices + a mirror of the right ones, right side = right vertices + a mirror of the left
// ones; each edge (l, r) of weight w costs W − w, its mirror (r', l') costs W, and a vertex that
// may stay unmatched gets a dummy edge to its own mirror, of cost W (W = the largest weight). Every
// perfect matching costs n·W minus the weight of its real part, and a vertex without a dummy edge
// must be matched by a real edge; König guarantees such a matching exists for the maximum-degree
// vertices. When every vertex must be covered the mirror half is left out (it would be an
// independent copy).
//
// The perfect matching is found by the primal-dual Hungarian method with Hopcroft–Karp phases:
// keep dual potentials with non-negative reduced costs; match as much as possible inside the
// subgraph of zero reduced cost (Hopcroft–Karp, many augmenting paths per phase); then one
// Dijkstra over reduced costs from all free left vertices raises the potentials so that every
// shortest augmenting path becomes tight; repeat. Each phase costs O(m log n + m √n); the number
// of phases is at most the number of augmentations (n), and in practice the number of distinct
// augmenting-path costs, which is small because message lengths take few distinct values.
// Potentials are kept from one call to the next: removing edges keeps them feasible, so each step
// of a schedule starts where the previous one ended and is mostly matched by Hopcroft–Karp alone.
//
// Ties are broken by the order of the edges given (deterministic: same input, same matching).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "redist/core/int_math.hpp"

namespace redist {

struct BipartiteEdge {
  Index left;    ///< in [0, left_count)
  Index right;   ///< in [0, right_count)
  Index weight;  ///< in [0, max_weight]
};

class MaxWeightMatcher {
 public:
  /// Throws std::invalid_argument for negative counts or weight, OverflowError when path costs
  /// could overflow 64 bits (max_weight·(left_count + right_count) beyond 2^58).
  MaxWeightMatcher(Index left_count, Index right_count, Index max_weight);

  /// The largest max_weight the constructor takes for these vertex counts.
  static Index weight_limit(Index left_count, Index right_count);

  /// Indices into `edges`, in increasing left vertex order, of a maximum-weight matching that covers
  /// every vertex whose flag is set. Throws std::invalid_argument when no matching covers them or an
  /// edge is out of range. Successive calls are fastest when each call's edges are a subset of the
  /// previous call's (the potentials stay feasible); any other input is handled by starting afresh.
  std::vector<std::size_t> match(std::span<const BipartiteEdge> edges, const std::vector<bool>& cover_left,
                                 const std::vector<bool>& cover_right);

 private:
  Index left_count_;
  Index right_count_;
  Index max_weight_;
  // Dual potentials of the doubled graph, kept from one call to the next.
  std::vector<Index> potential_left_;   // left vertices, then the mirrored right ones
  std::vector<Index> potential_right_;  // right vertices, then the mirrored left ones
};

}  // namespace redist
