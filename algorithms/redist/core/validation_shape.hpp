// The 1-D block-cyclic redistributions an indexing method or a schedule strategy is checked on by
// `redist validate`'s seeded random cases (redist/calibration/random_validation_cases.hpp). Each
// registry entry (redist/indexing/indexing_methods.hpp, redist/schedule/strategy.hpp) says its own,
// so that a new entry is validated with no list of names to update.
#pragma once

namespace redist {

enum class ValidationShape {
  None,            ///< never drawn (a test's stand-in, a method for other layouts)
  AnyBlocks,       ///< any processor counts, block sizes and placement
  DividingBlocks,  ///< one block size k times the other, 2 <= k <= 16 (krr)
  SquareDividing,  ///< P = Q, and one block size k times the other, 2 <= k <= P (walker-otto)
};

}  // namespace redist
