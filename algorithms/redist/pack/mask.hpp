// The masks of paper 001's experiments (§7): random masks of a given density, and the "triangle"
// mask — true where the global index is below N/2 on a 1-D array, and where the index on dimension 1
// is larger than the one on dimension 0 otherwise. Every element's value is a pure function of its
// global coordinates, so each processor builds its own part without communication.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "redist/pack/geometry.hpp"

namespace redist::pack {

struct MaskSpec {
  enum class Kind { Random, Triangle };
  Kind kind = Kind::Random;
  Index density_percent = 50;  ///< Random: percentage of true values (0..100), each element drawn alone
  std::uint64_t seed = 1;

  /// "triangle", or "random" with the given density. Throws std::invalid_argument for other names
  /// or a density outside 0..100.
  static MaskSpec named(const std::string& name, Index density_percent, std::uint64_t seed);
  bool value(const Geometry& geometry, std::span<const Index> coords) const;
  /// The same, from the element's row-major linear index.
  bool value_at(const Geometry& geometry, Index linear) const;
};

/// Processor `proc`'s local mask, in local storage order (1 = true).
std::vector<std::uint8_t> local_mask(const Geometry& geometry, const MaskSpec& mask, Index proc);

}  // namespace redist::pack
