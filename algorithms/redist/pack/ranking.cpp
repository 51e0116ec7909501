#include "redist/pack/ranking.hpp"

#include "redist/pack/phase_timing.hpp"

namespace redist::pack {

std::vector<Index> count_slices(const Geometry& geometry, std::span<const std::uint8_t> mask, Work& work) {
  const Index w0 = geometry.block(0);
  std::vector<Index> counts(static_cast<std::size_t>(geometry.slices()), 0);
  for (std::size_t offset = 0; offset < mask.size(); ++offset) {
    counts[offset / static_cast<std::size_t>(w0)] += mask[offset];
  }
  work.add(WorkKind::ElementScanned, static_cast<Index>(mask.size()));
  return counts;
}

namespace {

// Substep 2 of step i (i < d-1) and substep 3: segmented exclusive prefix of the totals RS_i over
// (row within a W_{i+1} block, tile), added to PS_i; returns the segment totals, PS_{i+1} = RS_{i+1}.
std::vector<Index> segmented_prefix(const Geometry& g, std::size_t i, std::vector<Index>& ps, const std::vector<Index>& rs) {
  const Index tiles = g.tiles(i), rows = g.outer(i);
  const Index next_rows = i + 1 < g.rank() ? g.local_extent(i + 1) : 1;
  const Index next_block = i + 1 < g.rank() ? g.block(i + 1) : 1;
  std::vector<Index> next;
  next.reserve(static_cast<std::size_t>(rows / next_block));
  Index running = 0;
  for (Index row = 0; row < rows; ++row) {
    if (i + 1 == g.rank() ? row == 0 : (row % next_rows) % next_block == 0) running = 0;
    for (Index t = 0; t < tiles; ++t) {
      const auto at = static_cast<std::size_t>(row * tiles + t);
      ps[at] += running;
      running += rs[at];
    }
    const bool segment_ends = i + 1 == g.rank() ? row + 1 == rows : (row % next_rows) % next_block == next_block - 1;
    if (segment_ends) next.push_back(running);
  }
  return next;
}

}  // namespace

Ranking finish_ranking(Transport& transport, const Geometry& g, std::vector<Index> slice_count, PrsAlgorithm algorithm,
                       Phases& times, WorkModel accounting) {
  const std::size_t d = g.rank();
  const Index me = transport.rank();
  const bool paper = accounting == WorkModel::Paper;
  Ranking ranking;
  ranking.slice_count = slice_count;
  std::vector<std::vector<Index>> ps(d);
  std::vector<Index> counts = std::move(slice_count);  // RS_i = PS_i on entry to step i
  for (std::size_t i = 0; i < d; ++i) {
    const auto line = g.line(me, i);
    const auto position = static_cast<std::size_t>(g.grid_coords(me)[i]);
    std::vector<Index> rs(counts.size());
    ps[i].resize(counts.size());
    start_timed_phase(transport, accounting);
    {
      PhaseClock clock(transport, times.prs);
      prefix_reduction_sum(transport, line, position, counts, ps[i], rs, algorithm, static_cast<Tag>(100 + 2 * i),
                           paper ? kPaperAccessesPerAdd : 1);
    }
    counts = segmented_prefix(g, i, ps[i], rs);
    const auto entries = static_cast<Index>(rs.size()), segments = static_cast<Index>(counts.size());
    transport.charge(paper ? paper_intermediate_step(entries, segments) : Work(WorkKind::ElementScanned, entries + segments));
  }
  ranking.size = counts.front();
  // Final step: PS_i(.., l_{i+1}, t_i) += PS_{i+1}(.., l_{i+1} div W_{i+1}).
  for (std::size_t i = d - 1; i-- > 0;) {
    const Index tiles = g.tiles(i), next_rows = g.local_extent(i + 1), next_block = g.block(i + 1);
    const Index next_tiles = g.tiles(i + 1);
    for (Index row = 0; row < g.outer(i); ++row) {
      const Index above = (row / next_rows) * next_tiles + (row % next_rows) / next_block;
      for (Index t = 0; t < tiles; ++t) ps[i][static_cast<std::size_t>(row * tiles + t)] += ps[i + 1][static_cast<std::size_t>(above)];
    }
    const auto entries = static_cast<Index>(ps[i].size());
    transport.charge(paper ? paper_base_rank_sum(entries) : Work(WorkKind::ElementScanned, entries));
  }
  ranking.slice_base = std::move(ps[0]);
  return ranking;
}

std::vector<Index> element_ranks(const Geometry& geometry, std::span<const std::uint8_t> mask, const Ranking& ranking) {
  const auto w0 = static_cast<std::size_t>(geometry.block(0));
  std::vector<Index> ranks(mask.size(), -1);
  Index next = 0;
  for (std::size_t offset = 0; offset < mask.size(); ++offset) {
    if (offset % w0 == 0) next = ranking.slice_base[offset / w0];
    if (mask[offset]) ranks[offset] = next++;
  }
  return ranks;
}

}  // namespace redist::pack
