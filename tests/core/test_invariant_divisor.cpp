// Division by invariant divisors (multiply and shift) against the hardware divide.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "redist/core/invariant_divisor.hpp"

namespace redist {
namespace {

void expect_divides(Index d, Index n) {
  const InvariantDivisor by(d);
  ASSERT_EQ(by.quotient(n), n / d) << "n=" << n << " d=" << d;
  ASSERT_EQ(by.remainder(n), n % d) << "n=" << n << " d=" << d;
}

TEST(InvariantDivisor, EdgeNumeratorsForEveryDivisorWidth) {
  constexpr Index kMax = std::numeric_limits<Index>::max();
  for (int bits = 0; bits < 63; ++bits) {
    const Index power = Index{1} << bits;
    for (Index d : {power - 1, power, power + 1, kMax / (power + 1)}) {
      if (d < 1) continue;
      for (Index n : {Index{0}, Index{1}, d - 1, d, d + 1, 2 * (d / 2), kMax, kMax - 1, kMax - d, (kMax / d) * d,
                      (kMax / d) * d - 1}) {
        if (n >= 0) expect_divides(d, n);
      }
    }
  }
}

TEST(InvariantDivisor, RandomDivisorsAndNumerators) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 20000; ++k) {
    const int d_bits = static_cast<int>(rng() % 63) + 1;
    const int n_bits = static_cast<int>(rng() % 63) + 1;
    const Index d = static_cast<Index>(rng() >> (64 - d_bits)) | 1;
    const Index n = static_cast<Index>(rng() >> (64 - n_bits));
    expect_divides(d, n);
    expect_divides(d / 2 + 1, n);  // an even divisor too
  }
}

TEST(InvariantDivisor, RejectsNonPositiveDivisors) {
  EXPECT_THROW(InvariantDivisor(0), std::invalid_argument);
  EXPECT_THROW(InvariantDivisor(-3), std::invalid_argument);
}

}  // namespace
}  // namespace redist
