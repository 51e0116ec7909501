#include "redist/layout/compression_table.hpp"

#include <algorithm>
#include <numeric>

#include "redist/core/checks.hpp"

namespace redist {

CompressionTable::CompressionTable(const ClassTable& classes, Index procs, Index proc, Work& work)
    : proc_(proc) {
  require_positive(procs, "processor count");
  require_in_range(proc, procs, "processor");
  const Index n_c = classes.classes();
  const Index occurrences = n_c / std::gcd(n_c, procs);
  pattern_elements_ = checked_mul(procs / std::gcd(n_c, procs), classes.cycle_elements(), "data distribution pattern");
  entries_.reserve(static_cast<std::size_t>(occurrences));
  // Fig. 7. Block b = p + k·P is kept as (⌊b / N_c⌋, b mod N_c), advanced by P's quotient and
  // remainder: no division per entry, and no overflow of b itself when P is huge.
  Index cycle = proc / n_c;
  Index c = proc % n_c;
  const Index cycle_step = procs / n_c;
  const Index class_step = procs % n_c;
  Index local = 0;
  for (Index k = 0; k < occurrences; ++k) {
    const ClassEntry& cls = classes[c];
    entries_.push_back({cycle * classes.cycle_elements() + cls.first, cls.count, local});
    local += cls.count;
    cycle += cycle_step;
    c += class_step;
    if (c >= n_c) {
      c -= n_c;
      ++cycle;
    }
  }
  local_pattern_elements_ = local;
  work.add(WorkKind::TableEntry, occurrences);
}

Index CompressionTable::count_before(Index j) const {
  const Index full = j / pattern_elements_;
  const Index rest = j % pattern_elements_;
  // Cells of a pattern lie in occurrence order: every entry before the last one starting below
  // `rest` lies wholly below it.
  const auto after = std::ranges::lower_bound(entries_, rest, {}, &CompressionEntry::global);
  Index within = 0;
  if (after != entries_.begin()) {
    const CompressionEntry& e = *(after - 1);
    within = e.local + std::min(rest - e.global, e.count);
  }
  return full * local_pattern_elements_ + within;
}

Index CompressionTable::occurrence_at(Index w) const {
  const auto after = std::ranges::upper_bound(entries_, w, {}, &CompressionEntry::local);
  return static_cast<Index>(after - entries_.begin()) - 1;
}

}  // namespace redist
