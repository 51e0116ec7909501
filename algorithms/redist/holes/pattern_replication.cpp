#include "redist/holes/pattern_replication.hpp"

#include <algorithm>
#include <cstring>

namespace redist {
namespace {

// Two 64-bit lanes: SSE2 on every x86-64, generic code elsewhere; wider GNU vectors would spill
// through the stack without -mavx.
using Lanes = Index __attribute__((vector_size(16)));

Lanes load(const Index* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);  // unaligned load
  return v;
}

void store(Index* p, Lanes v) { std::memcpy(p, &v, sizeof v); }

// dst[k] = src[k] + delta for k < n; the ranges do not overlap.
void shifted_copy(const Index* src, Index* dst, Index n, Index delta) {
  const Lanes d = {delta, delta};
  Index k = 0;
  for (; k + 8 <= n; k += 8) {  // four vectors per iteration
    const Lanes a = load(src + k) + d;
    const Lanes b = load(src + k + 2) + d;
    const Lanes c = load(src + k + 4) + d;
    const Lanes e = load(src + k + 6) + d;
    store(dst + k, a);
    store(dst + k + 2, b);
    store(dst + k + 4, c);
    store(dst + k + 6, e);
  }
  for (; k < n; ++k) dst[k] = src[k] + delta;
}

}  // namespace

Index replicate_patterns(std::span<Index> out, Index period, Index shift) {
  const auto size = static_cast<Index>(out.size());
  if (period <= 0) return 0;
  Index runs = 0;
  // Invariant: out[0, filled) is correct and filled is a multiple of period.
  for (Index filled = period; filled < size; ++runs) {
    const Index count = std::min(filled, size - filled);
    shifted_copy(out.data(), out.data() + filled, count, (filled / period) * shift);
    filled += count;
  }
  return runs;
}

}  // namespace redist
