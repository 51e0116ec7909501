// The class structure of paper 004 (section 4.2): with gcd(r, s) = 1 and g = gcd(P·r, Q·s),
// f(p, q) = p·r − q·s mod g splits the P×Q processor pairs into g classes of P·Q/g pairs, and all
// pairs of a class exchange messages of the same length.
#pragma once

#include <utility>
#include <vector>

#include "redist/comm_grid/redistribution.hpp"

namespace redist {

/// The piecewise-linear vol function of Figure 1: the number of (x, y), 0 <= x < r, 0 <= y < s,
/// with y − x = k (zero outside [1 − r, s − 1]).
Index vol(Index k, Index r, Index s);

/// Class of the pair (p, q): f(p, q) = p·r − q·s mod g, with the reduced r, s.
Index class_of(const Redistribution& redist, Index p, Index q);

/// Proposition 1: class(k) = { λ(s, r) + k(u, v) mod (P, Q) : 0 <= λ < P·Q/g }.
std::vector<std::pair<Index, Index>> class_members(const Redistribution& redist, Index k);

/// Proposition 2: the message length, per slice of L, of every pair in class k (0 when none),
/// including the Δ = gcd(r, s) scaling of Lemma 1.
Index class_length(const Redistribution& redist, Index k);

/// Lemma 2: every source sends to every destination iff g <= r + s − 1 (reduced r, s).
bool is_all_to_all(const Redistribution& redist);

/// Proposition 5: the largest number of messages in a row (m_R, sent by one source) and in a column
/// (m_C, received by one destination) of the communication grid.
struct MessageCounts {
  Index max_per_row;     ///< m_R
  Index max_per_column;  ///< m_C
};
MessageCounts max_message_counts(const Redistribution& redist);

}  // namespace redist
