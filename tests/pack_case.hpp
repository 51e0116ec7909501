// Random PACK/UNPACK cases and their check against the sequential Fortran semantics, shared by the
// thread-transport and simulator tests. Every rank checks its own part of the results.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "redist/pack/geometry.hpp"
#include "redist/pack/mask.hpp"
#include "redist/pack/preredistribution.hpp"
#include "redist/pack/ranking.hpp"
#include "redist/pack/reference.hpp"
#include "redist/pack/schemes.hpp"

namespace redist::test {

struct PackCase {
  std::vector<Index> extents, procs, blocks;
  pack::MaskSpec mask;
  Index vector_block = 0;  ///< W' of V (0 = BLOCK)
  Index extra = 0;         ///< UNPACK's V is this much longer than the mask's true count

  pack::Geometry geometry() const { return pack::Geometry(extents, procs, blocks); }
  std::string describe() const {
    std::string text = "shape";
    for (Index n : extents) text += " " + std::to_string(n);
    text += " grid";
    for (Index p : procs) text += " " + std::to_string(p);
    text += " blocks";
    for (Index w : blocks) text += " " + std::to_string(w);
    text += mask.kind == pack::MaskSpec::Kind::Triangle ? " triangle" : " density " + std::to_string(mask.density_percent);
    return text + " W' " + std::to_string(vector_block) + " extra " + std::to_string(extra);
  }
};

/// A random case on `procs` processors: rank 1-3, a random grid of that many processors, block
/// sizes 1-4, 1-3 tiles per dimension, any density or the triangle mask.
inline PackCase random_pack_case(std::mt19937_64& rng, Index procs) {
  const auto pick = [&](Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(rng); };
  PackCase c;
  const auto d = static_cast<std::size_t>(pick(1, 3));
  c.procs.assign(d, 1);
  Index left = procs;
  for (std::size_t i = 0; i + 1 < d; ++i) {  // a random divisor of what is left for each dimension
    std::vector<Index> divisors;
    for (Index k = 1; k <= left; ++k) {
      if (left % k == 0) divisors.push_back(k);
    }
    c.procs[i] = divisors[static_cast<std::size_t>(pick(0, static_cast<Index>(divisors.size()) - 1))];
    left /= c.procs[i];
  }
  c.procs[d - 1] = left;
  std::shuffle(c.procs.begin(), c.procs.end(), rng);
  for (std::size_t i = 0; i < d; ++i) {
    c.blocks.push_back(pick(1, d == 3 ? 3 : 4));
    c.extents.push_back(c.blocks[i] * c.procs[i] * pick(1, d == 3 ? 2 : 3));
  }
  const bool triangle = pick(0, 5) == 0;
  c.mask = pack::MaskSpec::named(triangle ? "triangle" : "random", pick(0, 10) * 10, static_cast<std::uint64_t>(pick(1, 1 << 30)));
  c.vector_block = pick(0, 1) == 0 ? 0 : pick(1, 5);
  c.extra = pick(0, 3);
  return c;
}

inline Index value_of(Index linear) { return 3 * linear + 1; }
inline Index field_of(Index linear) { return -(linear + 1); }
inline Index vector_value(Index rank) { return 1000 + 7 * rank; }

struct GlobalArrays {
  std::vector<Index> values;
  std::vector<std::uint8_t> mask;
};

inline GlobalArrays global_arrays(const pack::Geometry& g, const pack::MaskSpec& mask) {
  GlobalArrays a;
  for (Index linear = 0; linear < g.size(); ++linear) {
    a.values.push_back(value_of(linear));
    a.mask.push_back(mask.value(g, g.coords_of_linear(linear)) ? 1 : 0);
  }
  return a;
}

inline std::vector<Index> local_values(const pack::Geometry& g, Index proc, Index (*fn)(Index)) {
  std::vector<Index> local;
  for (Index offset = 0; offset < g.local_size(); ++offset) local.push_back(fn(g.linear_index(g.global_coords(proc, offset))));
  return local;
}

/// Runs PACK with `pack_scheme` (after `prered` when not None) and UNPACK with `unpack_scheme` on
/// this rank; returns "" or what went wrong.
inline std::string check_pack_case(Transport& t, const PackCase& c, pack::Scheme pack_scheme, pack::Scheme unpack_scheme,
                                   pack::PrsAlgorithm prs, pack::Preredistribution prered) {
  const pack::Geometry g = c.geometry();
  const Index me = t.rank();
  const GlobalArrays global = global_arrays(g, c.mask);
  const auto mask = pack::local_mask(g, c.mask, me);
  const auto values = local_values(g, me, value_of);
  const auto expected = pack::sequential_pack(global.values, global.mask);

  pack::Geometry used = g;
  pack::LocalArrays arrays{values, mask};
  if (prered != pack::Preredistribution::None) {
    arrays = pack::redistribute_to_block(t, g, values, mask, prered);
    used = g.as_block();
  }
  const auto packed = pack::pack(t, used, arrays.values, arrays.mask, {pack_scheme, prs, c.vector_block});
  if (packed.size != static_cast<Index>(expected.size())) return "PACK size " + std::to_string(packed.size);
  const auto v_layout = pack::vector_layout(packed.size, c.vector_block, t.size());
  for (std::size_t k = 0; k < packed.vector.size(); ++k) {
    const Index global_index = v_layout.global_index(me, static_cast<Index>(k));
    if (packed.vector[k] != expected[static_cast<std::size_t>(global_index)]) {
      return "PACK V(" + std::to_string(global_index) + ") = " + std::to_string(packed.vector[k]);
    }
  }

  const Index length = packed.size + c.extra;
  std::vector<Index> v_global(static_cast<std::size_t>(length));
  for (Index r = 0; r < length; ++r) v_global[static_cast<std::size_t>(r)] = vector_value(r);
  const auto field_global = [&] {
    std::vector<Index> f;
    for (Index linear = 0; linear < g.size(); ++linear) f.push_back(field_of(linear));
    return f;
  }();
  const auto expected_a = pack::sequential_unpack(v_global, global.mask, field_global);
  const auto in_layout = pack::vector_layout(length, c.vector_block, t.size());
  std::vector<Index> v_local;
  for (Index k = 0; length > 0 && k < in_layout.local_size(me); ++k) v_local.push_back(vector_value(in_layout.global_index(me, k)));
  const auto field = local_values(g, me, field_of);
  const auto unpacked = pack::unpack(t, g, v_local, mask, field, {unpack_scheme, prs, length, c.vector_block});
  for (Index offset = 0; offset < g.local_size(); ++offset) {
    const Index linear = g.linear_index(g.global_coords(me, offset));
    if (unpacked.array[static_cast<std::size_t>(offset)] != expected_a[static_cast<std::size_t>(linear)]) {
      return "UNPACK A at linear index " + std::to_string(linear);
    }
  }
  return "";
}

}  // namespace redist::test
