#include "redist/layout/compressed_index.hpp"

#include <cstdint>
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

// require_in_range with the passing case inline: the maps check every query.
inline void check_in_range(Index value, Index bound, const char* name) {
  if (static_cast<std::uint64_t>(value) >= static_cast<std::uint64_t>(bound)) require_in_range(value, bound, name);
}

}  // namespace

CompressedIndex::CompressedIndex(const TwoLevelMapping& mapping, Work& work)
    : mapping_(validated(mapping)),
      classes_(mapping.stride, mapping.offset, mapping.block, work),
      by_block_(mapping.block),
      by_procs_(mapping.procs),
      by_classes_(classes_.classes()),
      by_stride_(mapping.stride),
      by_occurrences_(classes_.classes() / std::gcd(classes_.classes(), mapping.procs)),
      pseudo_active_(mapping.pseudo_active()) {
  const Index n_c = classes_.classes();
  const Index class_step = mapping.procs % n_c;
  places_.resize(static_cast<std::size_t>(n_c));
  starts_.reserve(static_cast<std::size_t>(2 * n_c));
  firsts_.reserve(static_cast<std::size_t>(2 * n_c));
  for (Index rho = 0; rho < std::gcd(n_c, mapping.procs); ++rho) {
    const CompressionTable table(classes_, mapping.procs, rho, work);
    pattern_elements_ = table.pattern_elements();
    cycles_.push_back(continued(table));
    // Occurrence k of processor ρ is a block of class (ρ + k·P) mod N_c.
    for (Index k = 0, c = rho; k < table.occurrences(); ++k, c = (c + class_step) % n_c) {
      places_[static_cast<std::size_t>(c)] = {rho, cycles_.back().begin + k};
    }
  }
  work.add(WorkKind::TableEntry, n_c);
  // Cells o and s·(N_A − 1) + o + 1 cut the template before A(0) and after A(N_A − 1).
  const Index q = mapping.pseudo_active();
  const Index last = mapping.template_cell(mapping.size - 1);
  first_ = {mapping.offset / mapping.block, q - classes_.block_first(mapping.offset / mapping.block)};
  end_ = {last / mapping.block, mapping.size + q - classes_.block_first(last / mapping.block)};
  if (mapping.procs <= kKeptProcessors) {
    processors_.reserve(static_cast<std::size_t>(mapping.procs));
    for (Index p = 0; p < mapping.procs; ++p) processors_.push_back(describe(p));
  }
}

CompressedIndex::Cycle CompressedIndex::continued(const CompressionTable& table) {
  const Index per_pattern = table.local_pattern_elements();
  const bool inverse = per_pattern <= 2 * table.occurrences();
  const Cycle cycle{static_cast<Index>(starts_.size()), per_pattern, InvariantDivisor(per_pattern > 0 ? per_pattern : 1),
                    inverse ? static_cast<Index>(entry_of_.size()) : -1};
  for (Index pattern : {0, 1}) {
    for (const CompressionEntry& e : table.entries()) {
      const auto entry = static_cast<Index>(starts_.size());
      if (inverse) entry_of_.insert(entry_of_.end(), static_cast<std::size_t>(e.count), entry);
      starts_.push_back(e.local + pattern * per_pattern);
      firsts_.push_back(e.global + pattern * table.pattern_elements());
    }
  }
  return cycle;
}

CompressedIndex::Processor CompressedIndex::processor(Index p) const {
  return processors_.empty() ? describe(p) : processors_[static_cast<std::size_t>(p)];
}

CompressedIndex::Processor CompressedIndex::describe(Index p) const {
  const Place place = places_[static_cast<std::size_t>(by_classes_.remainder(p))];
  const Index pseudo = pseudo_active_ == 0 ? 0 : rank(p, place, first_);
  const Index shift = classes_.block_first(p) - firsts_[static_cast<std::size_t>(place.window)];
  return {place, pseudo, rank(p, place, end_) - pseudo, shift};
}

Index CompressedIndex::last_at_most(Index first, Index n, Index target) const {
  const Index* base = starts_.data() + first;
  for (Index len = n; len > 1;) {
    const Index half = len / 2;
    base = base[half] <= target ? base + half : base;  // a conditional move, not a branch
    len -= half;
  }
  return base - starts_.data();
}

Index CompressedIndex::blocks_prefix(const Place& place, Index k) const {
  const Index patterns = by_occurrences_.quotient(k);
  const Index rest = k - patterns * by_occurrences_.divisor();
  return patterns * cycles_[static_cast<std::size_t>(place.cycle)].per_pattern + start(place.window + rest) -
         start(place.window);
}

Index CompressedIndex::rank(Index p, const Place& place, Cut cut) const {
  if (cut.block < p) return 0;
  const Index k = by_procs_.quotient(cut.block - p);
  if (cut.block - p != k * mapping_.procs) return blocks_prefix(place, k + 1);  // the block is not p's
  return blocks_prefix(place, k) + cut.within;
}

Index CompressedIndex::select(const Processor& proc, Index k) const {
  const Cycle& cycle = cycles_[static_cast<std::size_t>(proc.place.cycle)];
  // Position k is position k mod A^p_ptn of the processor's window of the continued C_l column.
  const Index patterns = cycle.by_per_pattern.quotient(k);
  const Index target = k - patterns * cycle.per_pattern + start(proc.place.window);
  const Index m = cycle.inverse_begin >= 0 ? entry_of_[static_cast<std::size_t>(cycle.inverse_begin + target)]
                                           : last_at_most(proc.place.window, by_occurrences_.divisor(), target);
  return firsts_[static_cast<std::size_t>(m)] + patterns * pattern_elements_ + proc.shift + (target - start(m));
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
  check_in_range(p, mapping_.procs, "processor");
  const Processor proc = processor(p);
  check_in_range(local, proc.size, "local index");
  return select(proc, local + proc.pseudo) - pseudo_active_;
}

Index CompressedIndex::local_size(Index p) const {
  check_in_range(p, mapping_.procs, "processor");
  return processor(p).size;
}

}  // namespace redist
