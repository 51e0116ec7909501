// How many of a random or exhaustive check's cases a test build runs. Under AddressSanitizer +
// UndefinedBehaviorSanitizer (-DREDIST_SANITIZE=ON: REDIST_SANITIZED) code runs at about a tenth of
// its speed at -O0, and what those builds look for (an access out of bounds, a use after free, an
// overflow) shows on the same code paths with a share of the cases; the plain build runs them all.
#pragma once

namespace redist::test {

#ifdef REDIST_SANITIZED
inline constexpr int kSanitizerShare = 4;  // one case in four
#else
inline constexpr int kSanitizerShare = 1;
#endif

/// The number of cases of a check written for `cases`: all of them, or under the sanitizers a
/// quarter (rounded up). A check's bounds on what its sample covers scale with it.
constexpr int sampled_cases(int cases) { return (cases + kSanitizerShare - 1) / kSanitizerShare; }

}  // namespace redist::test
