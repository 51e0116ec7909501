#include "redist/layout/class_table.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

#include "redist/core/wide_int.hpp"

namespace redist {
namespace {

// The tables are O(N_c) long; beyond this the stride is not a plausible HPF alignment.
constexpr Index kMaxClasses = Index{1} << 26;

Index class_count(Index stride, Index block) {
  const Index classes = stride / std::gcd(stride, block);
  if (classes > kMaxClasses) {
    throw std::invalid_argument("two-level mapping has " + std::to_string(classes) +
                                " block classes (stride / gcd(stride, block)); at most 2^26 are supported");
  }
  return classes;
}

}  // namespace

ClassTable::ClassTable(Index stride, Index offset, Index block, Work& work)
    : stride_(stride),
      block_(block),
      reduced_offset_(offset % stride),
      cycle_elements_(0),
      by_classes_(class_count(stride, block)) {
  const Index classes = by_classes_.divisor();
  const Index r = reduced_offset_;
  entries_.reserve(static_cast<std::size_t>(classes));
  // Fig. 5, with c·x in 128 bits: (c + 1)·x reaches lcm(s, x), which may exceed 64 bits.
  for (Index c = 0; c < classes; ++c) {
    const WideIndex start = static_cast<WideIndex>(c) * block - r;
    const Index first = wide_ceil_div(start > 0 ? start : 0, stride);
    const Index last = wide_floor_div(start + block - 1, stride);
    entries_.push_back({first, last, last - first + 1});
  }
  cycle_elements_ = entries_.back().last + 1;
  work.add(WorkKind::TableEntry, classes);
}

}  // namespace redist
