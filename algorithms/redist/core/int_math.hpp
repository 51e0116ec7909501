// Integer helpers used by every closed form: 64-bit indices, overflow-checked products,
// gcd/lcm and the extended Euclid algorithm (paper 004 needs r·u − s·v = 1).
#pragma once

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

namespace redist {

/// Every global or local index, size and count in redist is 64-bit.
using Index = std::int64_t;

/// Thrown when a size, a product or a period does not fit in 64 bits.
class OverflowError : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

/// a·b, or OverflowError naming `what` when it does not fit in an Index.
inline Index checked_mul(Index a, Index b, const char* what) {
  Index out = 0;
  if (__builtin_mul_overflow(a, b, &out)) {
    throw OverflowError(std::string(what) + " overflows 64-bit indices");
  }
  return out;
}

/// a+b, or OverflowError naming `what`.
inline Index checked_add(Index a, Index b, const char* what) {
  Index out = 0;
  if (__builtin_add_overflow(a, b, &out)) {
    throw OverflowError(std::string(what) + " overflows 64-bit indices");
  }
  return out;
}

/// lcm(a, b) for positive a, b, checked for overflow.
inline Index checked_lcm(Index a, Index b, const char* what) {
  return checked_mul(a / std::gcd(a, b), b, what);
}

/// Mathematical modulo: the result is in [0, m) for m > 0, also for negative a.
constexpr Index floor_mod(Index a, Index m) {
  const Index r = a % m;
  return r < 0 ? r + m : r;
}

/// Floor division for m > 0 (rounds towards −∞, unlike `/`).
constexpr Index floor_div(Index a, Index m) { return (a - floor_mod(a, m)) / m; }

/// ceil(a / b) for a >= 0, b > 0.
constexpr Index ceil_div(Index a, Index b) { return a / b + (a % b != 0 ? 1 : 0); }

/// Bézout coefficients: a·x + b·y = gcd(a, b), for a, b >= 0.
struct Bezout {
  Index gcd;
  Index x;
  Index y;
};

constexpr Bezout extended_euclid(Index a, Index b) {
  Index old_r = a, r = b, old_x = 1, x = 0, old_y = 0, y = 1;
  while (r != 0) {
    const Index q = old_r / r;
    Index t = old_r - q * r;
    old_r = r;
    r = t;
    t = old_x - q * x;
    old_x = x;
    x = t;
    t = old_y - q * y;
    old_y = y;
    y = t;
  }
  return {old_r, old_x, old_y};
}

}  // namespace redist
