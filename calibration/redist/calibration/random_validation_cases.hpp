// The seeded random cases of `redist validate`: 2 to 8 ranks, block sizes small
// and large, arrays of 1 to 16 MiB, and over the set every indexing method, schedule and
// relabelling several times, each case one the library accepts. The methods and schedules are the
// registries' (indexing_methods.hpp, strategy.hpp), each drawn on the shapes its entry asks for.
#pragma once

#include <cstdint>
#include <vector>

#include "redist/calibration/validation_case.hpp"

namespace redist::calibration {

/// The ranks of a case: at most this many (max(P, Q) shared, P + Q disjoint), at least two.
constexpr Index kMaxValidationRanks = 8;
/// Array sizes: N elements of 8 bytes, from 1 MiB up to (not including) 16 MiB.
constexpr Index kMinValidationElements = Index{1} << 17;
constexpr Index kMaxValidationElements = (Index{1} << 21) - 1;
/// Block sizes: small ones from 1 to 8, large ones up to this.
constexpr Index kMaxValidationBlock = 400;

/// `count` cases drawn from splitmix64 streams of `seed`: the same seed gives the same cases on
/// every machine. Case i takes the (i mod m)-th of the m indexing methods the registry validates,
/// the (i mod n)-th of the n schedules (async, then the validated strategies) and relabelling
/// i mod 3 (with the built-in 4 and 5, coprime cycles, so the combinations vary); its shape is then
/// drawn to suit them (ValidationShape): krr and walker-otto get block sizes one of which divides
/// the other (walker-otto also P = Q and a ratio of at most P), relabelled cases share their ranks,
/// and a third of the others are disjoint.
/// At most `max_ranks` ranks (at least 2): fewer draw the cases that run within a machine's cores.
std::vector<ValidationCase> random_validation_cases(int count, std::uint64_t seed, Index max_ranks = kMaxValidationRanks);

/// `count` 2-D cases from `seed` (streams apart from the 1-D ones): matrices A of 1 to 16 MiB
/// between two random descriptors (a grid of each side's processes, blocks small and large, any
/// first process, a quarter stored row-major), over the validated indexing methods and schedules
/// that take any block sizes, relabelled and placed as the 1-D cases are; at most `max_ranks` ranks.
/// About a third (drawn from a stream of their own, so that every case's matrix is the one a whole
/// copy would draw) become copies of sub(A) into sub(B) as ScaLAPACK's pdgemr2d takes them: m x n
/// from a quarter of A's sides to all but one row and column, at any IA, JA inside A, into a B of
/// its own size (m x n up to A's) at any IB, JB inside B, column-major, run by the drop-in's plan.
std::vector<ValidationCase> random_matrix_validation_cases(int count, std::uint64_t seed,
                                                           Index max_ranks = kMaxValidationRanks);

}  // namespace redist::calibration
