#include "redist/layout/two_level.hpp"

#include <algorithm>
#include <stdexcept>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

// The reference representation keeps one period of the owner pattern; paper 003's class and
// compression tables (hole compression) are the compact alternative.
constexpr Index kMaxPeriod = Index{1} << 26;

}  // namespace

TwoLevelLayout::TwoLevelLayout(Index size, Index stride, Index offset, Index block, Index procs)
    : size_(size), stride_(stride), offset_(offset), block_(block), procs_(procs) {
  require_positive(size, "array size");
  require_positive(stride, "alignment stride");
  require_non_negative(offset, "alignment offset");
  require_positive(block, "block size");
  require_positive(procs, "processor count");
  checked_add(checked_mul(stride, size - 1, "last template cell"), offset, "last template cell");
  const Index template_period = checked_mul(block, procs, "block size x processor count");
  // stride·period is the first multiple of stride that is also a multiple of P·x.
  period_ = template_period / std::gcd(stride, template_period);
  if (period_ > kMaxPeriod) {
    throw std::invalid_argument("two-level mapping period " + std::to_string(period_) +
                                " exceeds the supported 2^26 elements");
  }
  offsets_in_period_.resize(static_cast<std::size_t>(procs));
  for (Index j = 0; j < period_; ++j) {
    offsets_in_period_[static_cast<std::size_t>(owner(j))].push_back(j);
  }
}

Index TwoLevelLayout::local_index(Index i) const {
  const auto& mine = offsets_in_period_[static_cast<std::size_t>(owner(i))];
  const Index within = i % period_;
  const auto pos = std::lower_bound(mine.begin(), mine.end(), within) - mine.begin();
  return (i / period_) * static_cast<Index>(mine.size()) + pos;
}

Index TwoLevelLayout::global_index(Index p, Index local) const {
  require_in_range(p, procs_, "processor");
  const auto& mine = offsets_in_period_[static_cast<std::size_t>(p)];
  const auto per_period = static_cast<Index>(mine.size());
  require_in_range(local, local_size(p), "local index");
  return (local / per_period) * period_ + mine[static_cast<std::size_t>(local % per_period)];
}

Index TwoLevelLayout::local_size(Index p) const {
  require_in_range(p, procs_, "processor");
  const auto& mine = offsets_in_period_[static_cast<std::size_t>(p)];
  const Index tail = size_ % period_;
  const auto in_tail = std::lower_bound(mine.begin(), mine.end(), tail) - mine.begin();
  return (size_ / period_) * static_cast<Index>(mine.size()) + in_tail;
}

}  // namespace redist
