#include "period_table.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace redist::bench {

PeriodTable::PeriodTable(Index size, Index stride, Index offset, Index block, Index procs)
    : size_(size), stride_(stride), offset_(offset), block_(block), procs_(procs) {
  period_ = block * procs / std::gcd(stride, block * procs);
  offsets_.resize(static_cast<std::size_t>(procs));
  for (Index j = 0; j < period_; ++j) offsets_[static_cast<std::size_t>(owner(j))].push_back(j);
}

Index PeriodTable::local_index(Index i) const {
  const auto& mine = offsets_[static_cast<std::size_t>(owner(i))];
  const auto pos = std::lower_bound(mine.begin(), mine.end(), i % period_) - mine.begin();
  return (i / period_) * static_cast<Index>(mine.size()) + pos;
}

Index PeriodTable::global_index(Index p, Index local) const {
  const auto& mine = offsets_[static_cast<std::size_t>(p)];
  const auto per_period = static_cast<Index>(mine.size());
  if (local < 0 || local >= local_size(p)) throw std::out_of_range("local index");
  return (local / per_period) * period_ + mine[static_cast<std::size_t>(local % per_period)];
}

Index PeriodTable::local_size(Index p) const {
  const auto& mine = offsets_[static_cast<std::size_t>(p)];
  const auto in_tail = std::lower_bound(mine.begin(), mine.end(), size_ % period_) - mine.begin();
  return (size_ / period_) * static_cast<Index>(mine.size()) + in_tail;
}

}  // namespace redist::bench
