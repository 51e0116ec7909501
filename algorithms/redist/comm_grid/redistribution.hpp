// The parameters of a 1-D redistribution CYCLIC(r) on P processors -> CYCLIC(s) on Q processors
// (paper 004, section 4.1) and the quantities every closed form starts from.
#pragma once

#include "redist/core/int_math.hpp"

namespace redist {

struct Redistribution {
  Index P;  ///< source processors
  Index r;  ///< source block size
  Index Q;  ///< destination processors
  Index s;  ///< destination block size

  /// Throws std::invalid_argument naming the first non-positive parameter.
  void validate() const;
  /// L = lcm(P·r, Q·s): the communication pattern repeats every L elements.
  /// Throws OverflowError when L does not fit in 64 bits.
  Index slice_length() const;
};

/// Lemma 1: with Δ = gcd(r, s), the problem reduces to r/Δ, s/Δ with message lengths scaled by Δ.
struct ReducedRedistribution {
  Index delta;  ///< Δ = gcd(r, s)
  Index r;      ///< r / Δ
  Index s;      ///< s / Δ
  Index g;      ///< gcd(P·r/Δ, Q·s/Δ): the number of classes
  Index u;      ///< Bézout pair of the reduced sizes: r·u − s·v = 1
  Index v;
};

ReducedRedistribution reduce(const Redistribution& redist);

}  // namespace redist
