#include "redist/comm_grid/redistribution.hpp"

#include <numeric>

#include "redist/core/checks.hpp"

namespace redist {

void Redistribution::validate() const {
  require_positive(P, "P (source processors)");
  require_positive(r, "r (source block size)");
  require_positive(Q, "Q (destination processors)");
  require_positive(s, "s (destination block size)");
}

Index Redistribution::slice_length() const {
  validate();
  return checked_lcm(checked_mul(P, r, "P*r"), checked_mul(Q, s, "Q*s"), "L = lcm(P*r, Q*s)");
}

ReducedRedistribution reduce(const Redistribution& redist) {
  redist.slice_length();  // validates and rejects overflowing parameters
  const Index delta = std::gcd(redist.r, redist.s);
  const Index r = redist.r / delta;
  const Index s = redist.s / delta;
  const Bezout b = extended_euclid(r, s);  // r·x + s·y = 1
  return {delta, r, s, std::gcd(redist.P * r, redist.Q * s), b.x, -b.y};
}

}  // namespace redist
