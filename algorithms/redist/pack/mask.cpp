#include "redist/pack/mask.hpp"

#include <stdexcept>

#include "redist/core/splitmix.hpp"

namespace redist::pack {

MaskSpec MaskSpec::named(const std::string& name, Index density_percent, std::uint64_t seed) {
  if (density_percent < 0 || density_percent > 100) {
    throw std::invalid_argument("mask density must be a percentage between 0 and 100 (got " +
                                std::to_string(density_percent) + ")");
  }
  if (name == "random") return {Kind::Random, density_percent, seed};
  if (name == "triangle") return {Kind::Triangle, density_percent, seed};
  throw std::invalid_argument("mask must be random or triangle, got '" + name + "'");
}

bool MaskSpec::value(const Geometry& geometry, std::span<const Index> coords) const {
  return value_at(geometry, geometry.linear_index(coords));
}

bool MaskSpec::value_at(const Geometry& geometry, Index linear) const {
  if (kind == Kind::Triangle) {
    const Index i0 = linear % geometry.extent(0);
    if (geometry.rank() == 1) return i0 < geometry.extent(0) / 2;
    return (linear / geometry.extent(0)) % geometry.extent(1) > i0;
  }
  const auto draw = splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(linear)));
  return draw % 100 < static_cast<std::uint64_t>(density_percent);
}

std::vector<std::uint8_t> local_mask(const Geometry& geometry, const MaskSpec& mask, Index proc) {
  std::vector<std::uint8_t> local;
  local.reserve(static_cast<std::size_t>(geometry.local_size()));
  for (Index linear : geometry.local_linear_indices(proc)) local.push_back(mask.value_at(geometry, linear) ? 1 : 0);
  return local;
}

}  // namespace redist::pack
