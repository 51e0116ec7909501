// Argument checks shared by the layout and grid constructors: one clear message per bad value.
#pragma once

#include <stdexcept>
#include <string>

#include "redist/core/int_math.hpp"

namespace redist {

/// Throws std::invalid_argument("<name> must be a positive integer (got <value>)") unless value > 0.
inline void require_positive(Index value, const char* name) {
  if (value <= 0) {
    throw std::invalid_argument(std::string(name) + " must be a positive integer (got " +
                                std::to_string(value) + ")");
  }
}

/// Throws std::invalid_argument unless value >= 0.
inline void require_non_negative(Index value, const char* name) {
  if (value < 0) {
    throw std::invalid_argument(std::string(name) + " must be a non-negative integer (got " +
                                std::to_string(value) + ")");
  }
}

/// Throws std::out_of_range unless 0 <= value < bound.
inline void require_in_range(Index value, Index bound, const char* name) {
  if (value < 0 || value >= bound) {
    throw std::out_of_range(std::string(name) + " " + std::to_string(value) +
                            " is outside [0, " + std::to_string(bound) + ")");
  }
}

}  // namespace redist
