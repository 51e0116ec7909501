#include "redist/pack/reference.hpp"

#include <stdexcept>

namespace redist::pack {

std::vector<Index> sequential_pack(std::span<const Index> array, std::span<const std::uint8_t> mask) {
  if (array.size() != mask.size()) throw std::invalid_argument("PACK: array and mask are not conformable");
  std::vector<Index> out;
  for (std::size_t k = 0; k < array.size(); ++k) {
    if (mask[k]) out.push_back(array[k]);
  }
  return out;
}

std::vector<Index> sequential_unpack(std::span<const Index> vector, std::span<const std::uint8_t> mask,
                                     std::span<const Index> field) {
  if (field.size() != mask.size()) throw std::invalid_argument("UNPACK: field and mask are not conformable");
  std::vector<Index> out(field.begin(), field.end());
  std::size_t next = 0;
  for (std::size_t k = 0; k < mask.size(); ++k) {
    if (!mask[k]) continue;
    if (next >= vector.size()) throw std::invalid_argument("UNPACK: the vector is shorter than the mask's true count");
    out[k] = vector[next++];
  }
  return out;
}

}  // namespace redist::pack
