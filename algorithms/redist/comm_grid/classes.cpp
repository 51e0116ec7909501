#include "redist/comm_grid/classes.hpp"

#include <algorithm>
#include <numeric>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

// Sums of vol over long progressions can exceed 64 bits before the final scaling is checked.
__extension__ typedef __int128 Wide;

// Σ (a + b·k) over k in [lo, hi] with k ≡ residue (mod step).
Wide sum_linear_on_progression(Index lo, Index hi, Index residue, Index step, Wide a, Wide b) {
  if (lo > hi) return 0;
  const Index first = lo + floor_mod(residue - lo, step);
  if (first > hi) return 0;
  const Wide n = (hi - first) / step + 1;
  return n * a + b * (n * first + Wide{step} * n * (n - 1) / 2);
}

}  // namespace

Index vol(Index k, Index r, Index s) {
  if (k < 1 - r || k > s - 1) return 0;
  return std::min({r, s, r + k, s - k});
}

Index class_of(const Redistribution& redist, Index p, Index q) {
  const auto red = reduce(redist);
  return floor_mod(p * red.r - q * red.s, red.g);
}

std::vector<std::pair<Index, Index>> class_members(const Redistribution& redist, Index k) {
  const auto red = reduce(redist);
  require_in_range(k, red.g, "class");
  const Index count = redist.P * redist.Q / red.g;
  // Start from k·(u, v) and step by (s, r), everything reduced modulo (P, Q).
  const Index p0 = floor_mod(static_cast<Index>(Wide{k} * red.u % redist.P), redist.P);
  const Index q0 = floor_mod(static_cast<Index>(Wide{k} * red.v % redist.Q), redist.Q);
  const Index dp = red.s % redist.P;
  const Index dq = red.r % redist.Q;
  std::vector<std::pair<Index, Index>> members;
  members.reserve(static_cast<std::size_t>(count));
  Index p = p0, q = q0;
  for (Index lambda = 0; lambda < count; ++lambda) {
    members.emplace_back(p, q);
    p += dp;
    if (p >= redist.P) p -= redist.P;
    q += dq;
    if (q >= redist.Q) q -= redist.Q;
  }
  return members;
}

Index class_length(const Redistribution& redist, Index k) {
  const auto red = reduce(redist);
  require_in_range(k, red.g, "class");
  const Index r = red.r, s = red.s, m = std::min(r, s);
  // vol rises as r + k on [1 − r, m − r − 1], is flat at m on [m − r, s − m], falls as s − k on
  // [s − m + 1, s − 1]; sum each piece over the k' ≡ k (mod g) it contains.
  const Wide total = sum_linear_on_progression(1 - r, m - r - 1, k, red.g, r, 1) +
                     sum_linear_on_progression(m - r, s - m, k, red.g, m, 0) +
                     sum_linear_on_progression(s - m + 1, s - 1, k, red.g, s, -1);
  return static_cast<Index>(total * red.delta);
}

bool is_all_to_all(const Redistribution& redist) {
  const auto red = reduce(redist);
  return red.g <= red.r + red.s - 1;
}

MessageCounts max_message_counts(const Redistribution& redist) {
  if (is_all_to_all(redist)) return {redist.Q, redist.P};
  const auto red = reduce(redist);
  const Index s_p = std::gcd(red.s, redist.P);  // s' of Lemma 3
  const Index r_q = std::gcd(red.r, redist.Q);  // r' of Lemma 3
  const Index P1 = redist.P / s_p, Q1 = redist.Q / r_q;
  const Index g0 = std::gcd(P1, Q1);
  const Index classes = red.r + red.s - 1;
  return {Q1 / g0 * ceil_div(classes, s_p), P1 / g0 * ceil_div(classes, r_q)};
}

}  // namespace redist
