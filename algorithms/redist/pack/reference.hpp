// Sequential Fortran 90 semantics, the oracle of the parallel PACK/UNPACK: PACK(ARRAY, MASK) keeps
// the true elements in array element order (row-major here, dimension 0 fastest); UNPACK(V, MASK,
// FIELD) fills the true positions from V in that order and the others from FIELD.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "redist/core/int_math.hpp"

namespace redist::pack {

/// `array` and `mask` in global row-major order.
std::vector<Index> sequential_pack(std::span<const Index> array, std::span<const std::uint8_t> mask);
std::vector<Index> sequential_unpack(std::span<const Index> vector, std::span<const std::uint8_t> mask,
                                     std::span<const Index> field);

}  // namespace redist::pack
