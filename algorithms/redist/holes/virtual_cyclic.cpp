#include "redist/holes/virtual_cyclic.hpp"

#include "redist/core/checks.hpp"
#include "redist/core/wide_int.hpp"

namespace redist {
namespace {

// The congruence s·i ≡ v − o (mod P·x), reduced by g = gcd(s, P·x) to i ≡ ((v − o) / g)·inverse
// (mod modulus), with inverse = (s / g)^(−1) mod modulus.
struct Congruence {
  Index g;
  Index modulus;
  Index inverse;
};

Congruence solve(Index stride, Index cells) {
  const Bezout e = extended_euclid(stride, cells);  // stride·x + cells·y = g
  const Index modulus = cells / e.gcd;
  return {e.gcd, modulus, floor_mod(e.x, modulus)};
}

}  // namespace

void virtual_cyclic_local_array(const TwoLevelMapping& mapping, Index proc, std::vector<Index>& out, Work& work) {
  mapping.validate();
  require_in_range(proc, mapping.procs, "processor");
  out.clear();
  const Index o = mapping.offset, x = mapping.block, n = mapping.size;
  const Congruence eq = solve(mapping.stride, mapping.procs * x);
  work.add(WorkKind::IndexOp, 2);
  // First active virtual processor of p (v ≡ o mod g), its first solution; the next active one is
  // g further, and its solution `inverse` further mod modulus.
  const Index first_vp = proc * x;
  Index v = first_vp + floor_mod(o - first_vp, eq.g);
  Index start = mul_mod(floor_mod(floor_div(v - o, eq.g), eq.modulus), eq.inverse, eq.modulus);
  Index active = 0;
  for (; v < first_vp + x; v += eq.g, ++active) {
    const Index length = start < n ? (n - 1 - start) / eq.modulus + 1 : 0;
    for (Index k = 0; k < length; ++k) out.push_back(start + k * eq.modulus);
    start += eq.inverse;
    if (start >= eq.modulus) start -= eq.modulus;
  }
  work.add(WorkKind::IndexOp, 2 * active);
  work.add(WorkKind::ElementScanned, static_cast<Index>(out.size()));  // each produced one at a time
  work.add(WorkKind::ByteCopied, static_cast<Index>(out.size() * sizeof(Index)));  // and stored
}

}  // namespace redist
