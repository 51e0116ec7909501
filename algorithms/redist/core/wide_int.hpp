// 128-bit intermediates for closed forms whose products may exceed 64 bits although their results
// fit: the class table's c·x for huge blocks, modular products of the linear-congruence solvers.
#pragma once

#include "redist/core/int_math.hpp"

namespace redist {

// __extension__: GNU types, accepted under -Wpedantic.
__extension__ using WideIndex = __int128;
__extension__ using WideUnsigned = unsigned __int128;

/// floor(a / m) for m > 0; the caller guarantees the quotient fits in an Index.
constexpr Index wide_floor_div(WideIndex a, Index m) {
  const WideIndex q = a / m;
  return static_cast<Index>((a % m != 0 && a < 0) ? q - 1 : q);
}

/// ceil(a / m) for m > 0; the caller guarantees the quotient fits in an Index.
constexpr Index wide_ceil_div(WideIndex a, Index m) { return -wide_floor_div(-a, m); }

/// a·b mod m for a, b in [0, m).
constexpr Index mul_mod(Index a, Index b, Index m) {
  return static_cast<Index>(static_cast<WideIndex>(a) * b % m);
}

}  // namespace redist
