#include "redist/holes/local_array.hpp"

#include <algorithm>
#include <span>

#include "redist/core/checks.hpp"
#include "redist/holes/pattern_replication.hpp"

namespace redist {
namespace {

// The elements past the first pattern, and the work of the whole array: the first pattern's
// elements are produced one at a time from the table, the others by word copies of whole patterns.
void finish(const CompressionTable& table, std::vector<Index>& out, Work& work) {
  const Index runs = replicate_patterns(std::span<Index>(out), table.local_pattern_elements(), table.pattern_elements());
  const auto size = static_cast<Index>(out.size());
  work.add(WorkKind::ElementScanned, std::min(size, table.local_pattern_elements()));
  work.add(WorkKind::RunCopied, runs);
  work.add(WorkKind::ByteCopied, size * static_cast<Index>(sizeof(Index)));
}

}  // namespace

Index local_array_size(const CompressionTable& table, Index size, Index pseudo) {
  return table.count_before(size + pseudo) - table.count_before(pseudo);
}

void special_case_local_array(const CompressionTable& table, Index size, std::vector<Index>& out, Work& work) {
  out.resize(static_cast<std::size_t>(table.count_before(size)));
  work.add(WorkKind::IndexOp, 1);
  const Index first = std::min(static_cast<Index>(out.size()), table.local_pattern_elements());
  // Occurrence by occurrence, C_n elements from C_g, stored from C_l on.
  for (const CompressionEntry& e : table.entries()) {
    const Index count = std::min(e.count, first - e.local);
    for (Index m = 0; m < count; ++m) out[static_cast<std::size_t>(e.local + m)] = e.global + m;
  }
  finish(table, out, work);
}

void general_case_local_array(const CompressionTable& table, Index size, Index pseudo, std::vector<Index>& out,
                              Work& work) {
  const Index skipped = table.count_before(pseudo);  // pseudo-active elements on this processor
  out.resize(static_cast<std::size_t>(table.count_before(size + pseudo) - skipped));
  work.add(WorkKind::IndexOp, 3);
  if (out.empty()) return;
  const Index per_pattern = table.local_pattern_elements();
  const Index first = std::min(static_cast<Index>(out.size()), per_pattern);
  // The array starts at position `skipped` of the processor's reduced array (pseudo-active
  // elements included): in pattern skipped div A^p_ptn, at occurrence occurrence_at(skipped mod A^p_ptn).
  Index base = (skipped / per_pattern) * table.pattern_elements() - pseudo;
  Index k = table.occurrence_at(skipped % per_pattern);
  Index within = skipped % per_pattern - table[k].local;
  for (Index l = 0; l < first;) {
    const CompressionEntry& e = table[k];
    for (; within < e.count && l < first; ++within) out[static_cast<std::size_t>(l++)] = base + e.global + within;
    within = 0;
    if (++k == table.occurrences()) {  // into the next pattern
      k = 0;
      base += table.pattern_elements();
    }
  }
  finish(table, out, work);
}

void compressed_local_array(const TwoLevelMapping& mapping, Index proc, std::vector<Index>& out, Work& work) {
  mapping.validate();
  require_in_range(proc, mapping.procs, "processor");
  const ClassTable classes(mapping.stride, mapping.offset, mapping.block, work);
  const CompressionTable table(classes, mapping.procs, proc, work);
  if (mapping.pseudo_active() == 0) {
    special_case_local_array(table, mapping.size, out, work);
  } else {
    general_case_local_array(table, mapping.size, mapping.pseudo_active(), out, work);
  }
}

}  // namespace redist
