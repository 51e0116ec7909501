// splitmix64 (Steele, Lea, Flood 2014): a cheap, well-mixed, portable 64-bit hash. Verified runs fill
// elements with it, masks draw from it, checksums sum it: the same values on every machine.
#pragma once

#include <cstdint>

namespace redist {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace redist
