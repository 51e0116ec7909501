// Division by a divisor fixed at set-up, as one multiplication and one shift (Granlund and
// Montgomery, "Division by invariant integers using multiplication", PLDI 1994). Index maps divide
// every query by the same few numbers — block size, processor count, class count — and a hardware
// 64-bit divide costs several multiplications.
#pragma once

#include <bit>
#include <cstdint>

#include "redist/core/checks.hpp"
#include "redist/core/wide_int.hpp"

namespace redist {

class InvariantDivisor {
 public:
  /// d >= 1; throws std::invalid_argument otherwise.
  explicit InvariantDivisor(Index d) : d_(d) {
    require_positive(d, "divisor");
    // With l = ⌈log2 d⌉ and k = 63 + l, m = ⌈2^k / d⌉ satisfies 2^k <= m·d < 2^k + 2^l, which makes
    // ⌊m·n / 2^k⌋ = ⌊n / d⌋ for every 0 <= n < 2^63 (Theorem 4.2 of the paper); m < 2^64.
    // quotient() computes ⌊m·n / 2^k⌋ as ⌊⌊m·2n / 2^64⌋ / 2^l⌋: a high product and a plain shift.
    log2_ = d == 1 ? 0 : 64 - std::countl_zero(static_cast<std::uint64_t>(d - 1));
    magic_ = static_cast<std::uint64_t>(((WideUnsigned{1} << (63 + log2_)) + static_cast<WideUnsigned>(d - 1)) /
                                        static_cast<WideUnsigned>(d));
  }

  Index divisor() const { return d_; }
  /// ⌊n / d⌋ for n >= 0.
  Index quotient(Index n) const {
    const auto twice = static_cast<std::uint64_t>(n) << 1;  // n < 2^63
    return static_cast<Index>(static_cast<std::uint64_t>(static_cast<WideUnsigned>(twice) * magic_ >> 64) >> log2_);
  }
  /// n mod d for n >= 0.
  Index remainder(Index n) const { return n - quotient(n) * d_; }

 private:
  Index d_;
  std::uint64_t magic_ = 0;
  int log2_ = 0;
};

}  // namespace redist
