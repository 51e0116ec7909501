#include "redist/holes/compressed_index.hpp"

#include <numeric>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

// Up to this many processors, their places and counts are kept (40 bytes each) rather than
// recomputed by every query.
constexpr Index kKeptProcessors = Index{1} << 16;

const TwoLevelMapping& validated(const TwoLevelMapping& mapping) {
  mapping.validate();
  return mapping;
}

}  // namespace

CompressedIndex::CompressedIndex(const TwoLevelMapping& mapping, Work& work)
    : mapping_(validated(mapping)),
      classes_(mapping.stride, mapping.offset, mapping.block, work),
      by_block_(mapping.block),
      by_procs_(mapping.procs),
      by_classes_(classes_.classes()),
      by_stride_(mapping.stride),
      by_occurrences_(classes_.classes() / std::gcd(classes_.classes(), mapping.procs)) {
  const Index n_c = classes_.classes();
  const Index class_step = mapping.procs % n_c;
  places_.resize(static_cast<std::size_t>(n_c));
  for (Index rho = 0; rho < std::gcd(n_c, mapping.procs); ++rho) {
    const CompressionTable table(classes_, mapping.procs, rho, work);
    pattern_elements_ = table.pattern_elements();
    cycles_.push_back(continued(table));
    // Occurrence k of processor ρ is a block of class (ρ + k·P) mod N_c.
    for (Index k = 0, c = rho; k < table.occurrences(); ++k, c = (c + class_step) % n_c) {
      places_[static_cast<std::size_t>(c)] = {rho, k};
    }
  }
  work.add(WorkKind::TableEntry, n_c);
  // Cells o and s·(N_A − 1) + o + 1 cut the template before A(0) and after A(N_A − 1).
  const Index q = mapping.pseudo_active();
  const Index last = mapping.template_cell(mapping.size - 1);
  first_ = {mapping.offset / mapping.block, q - classes_.block_first(mapping.offset / mapping.block)};
  end_ = {last / mapping.block, mapping.size + q - classes_.block_first(last / mapping.block)};
  if (mapping.procs <= kKeptProcessors) {
    for (Index p = 0; p < mapping.procs; ++p) processors_.push_back(describe(p));
  }
}

CompressedIndex::Cycle CompressedIndex::continued(const CompressionTable& table) {
  const Index per_pattern = table.local_pattern_elements();
  Cycle cycle{{}, {}, per_pattern, InvariantDivisor(per_pattern > 0 ? per_pattern : 1)};
  for (Index pattern : {0, 1}) {
    for (const CompressionEntry& e : table.entries()) {
      cycle.starts.push_back(e.local + pattern * per_pattern);
      cycle.firsts.push_back(e.global + pattern * table.pattern_elements());
    }
  }
  return cycle;
}

CompressedIndex::Processor CompressedIndex::processor(Index p) const {
  return processors_.empty() ? describe(p) : processors_[static_cast<std::size_t>(p)];
}

CompressedIndex::Processor CompressedIndex::describe(Index p) const {
  const Place place = places_[static_cast<std::size_t>(by_classes_.remainder(p))];
  const Index pseudo = mapping_.pseudo_active() == 0 ? 0 : rank(p, place, first_);
  const Index shift = classes_.block_first(p) - cycles_[static_cast<std::size_t>(place.cycle)].firsts[static_cast<std::size_t>(place.position)];
  return {place, pseudo, rank(p, place, end_) - pseudo, shift};
}

Index CompressedIndex::last_at_most(const std::vector<Index>& starts, Index first, Index n, Index target) {
  const Index* base = starts.data() + first;
  for (Index len = n; len > 1;) {
    const Index half = len / 2;
    base = base[half] <= target ? base + half : base;  // a conditional move, not a branch
    len -= half;
  }
  return base - starts.data();
}

Index CompressedIndex::blocks_prefix(const Place& place, Index k) const {
  const Cycle& cycle = cycles_[static_cast<std::size_t>(place.cycle)];
  const Index patterns = by_occurrences_.quotient(k);
  const Index rest = k - patterns * by_occurrences_.divisor();
  const auto at = [&cycle](Index m) { return cycle.starts[static_cast<std::size_t>(m)]; };
  return patterns * cycle.per_pattern + at(place.position + rest) - at(place.position);
}

Index CompressedIndex::rank(Index p, const Place& place, Cut cut) const {
  if (cut.block < p) return 0;
  const Index k = by_procs_.quotient(cut.block - p);
  if (cut.block - p != k * mapping_.procs) return blocks_prefix(place, k + 1);  // the block is not p's
  return blocks_prefix(place, k) + cut.within;
}

Index CompressedIndex::select(const Processor& proc, Index k) const {
  const Cycle& cycle = cycles_[static_cast<std::size_t>(proc.place.cycle)];
  const auto at = [](const std::vector<Index>& column, Index m) { return column[static_cast<std::size_t>(m)]; };
  // Position k is position k mod A^p_ptn of the processor's rotated table: of the continued
  // C_l column, counted from entry `position`.
  const Index patterns = cycle.by_per_pattern.quotient(k);
  const Index target = k - patterns * cycle.per_pattern + at(cycle.starts, proc.place.position);
  const Index m = last_at_most(cycle.starts, proc.place.position, by_occurrences_.divisor(), target);
  return at(cycle.firsts, m) + patterns * pattern_elements_ + proc.shift + (target - at(cycle.starts, m));
}

Index CompressedIndex::local_index(Index i) const {
  const Index t = mapping_.template_cell(i);
  const Index b = by_block_.quotient(t);
  const Index k = by_procs_.quotient(b);
  const Processor proc = processor(b - k * mapping_.procs);
  // The aligned cells of block b before t are t − s, t − 2s, ... down to the block's start.
  const Index within = by_stride_.quotient(t - b * mapping_.block);
  return blocks_prefix(proc.place, k) + within - proc.pseudo;
}

Index CompressedIndex::global_index(Index p, Index local) const {
  require_in_range(p, mapping_.procs, "processor");
  const Processor proc = processor(p);
  require_in_range(local, proc.size, "local index");
  return select(proc, local + proc.pseudo) - mapping_.pseudo_active();
}

Index CompressedIndex::local_size(Index p) const {
  require_in_range(p, mapping_.procs, "processor");
  return processor(p).size;
}

}  // namespace redist
