#include "redist/indexing/submatrix_plan.hpp"

#include <algorithm>
#include <set>

namespace redist {
namespace {

// A stretch of consecutive submatrix indices k (rows of sub(from), or its columns) whose owners
// stay the same on both sides: the source coordinate and local index of the first, and the
// destination's (in the destination dimension k lands in: its rows, or its columns if transposed).
struct Segment {
  Index first = 0, length = 0;
  Index source_coord = 0, source_local = 0;
  Index dest_coord = 0, dest_local = 0;
};

// Cuts [0, count) into segments: from index from0 + k of `source`, to index to0 + k of `dest`.
std::vector<Segment> segments(const BlockCyclic& source, Index from0, const BlockCyclic& dest, Index to0, Index count) {
  std::vector<Segment> cut;
  for (Index k = 0; k < count;) {
    const Index g = from0 + k, h = to0 + k;
    const Index length = std::min({source.block_size() - g % source.block_size(),
                                   dest.block_size() - h % dest.block_size(), count - k});
    cut.push_back({k, length, source.owner(g), source.local_index(g), dest.owner(h), dest.local_index(h)});
    k += length;
  }
  return cut;
}

// This side's segments grouped by the peer's coordinate, each group in increasing k. A segment that
// follows the group's last one in this side's local storage extends it, where it also follows it in
// k or where `whole` (every row and column of the submatrix is copied: no k is compared with a
// trapezoid's bounds): only this side's local index is read from a group (message()), and the element
// order stays the same. Where this side's blocks are smaller than the peer's (blocks of one row
// against the peer's 64, or a peer holding all) the message's loop then walks a column's rows in
// one piece instead of one per block.
std::vector<std::vector<Segment>> by_peer(const std::vector<Segment>& all, Index my_coord, Index peer_coords,
                                          bool sending, bool whole) {
  std::vector<std::vector<Segment>> groups(static_cast<std::size_t>(peer_coords));
  for (const Segment& s : all) {
    if ((sending ? s.source_coord : s.dest_coord) != my_coord) continue;
    std::vector<Segment>& group = groups[static_cast<std::size_t>(sending ? s.dest_coord : s.source_coord)];
    if (!group.empty()) {
      Segment& last = group.back();
      const Index last_local = sending ? last.source_local : last.dest_local;
      const Index local = sending ? s.source_local : s.dest_local;
      if ((whole || s.first == last.first + last.length) && local == last_local + last.length) {
        last.length += s.length;
        continue;
      }
    }
    group.push_back(s);
  }
  return groups;
}

// Rows of column j of the m-row submatrix that `copy` copies. As p?trmr2d, the diagonal of a
// non-square trapezoid ends in the corner of its longer side: measured on ScaLAPACK, UPLO 'U' of a
// 6 x 3 submatrix copies its first three rows whole.
std::pair<Index, Index> copied_rows(const SubmatrixCopy& copy, Index j) {
  const Index diagonal = copy.unit_diagonal ? 1 : 0;
  const Index m = copy.rows, n = copy.cols;
  switch (copy.part) {
    case MatrixPart::Upper: return {0, std::clamp(j - std::min<Index>(0, n - m) - diagonal + 1, Index{0}, m)};
    case MatrixPart::Lower: return {std::clamp(j + std::min<Index>(0, m - n) + diagonal, Index{0}, m), m};
    case MatrixPart::All: break;
  }
  return {0, m};
}

// One side of the copy as rank `me` plays it: its own storage and the grid dimensions of the peer.
struct CopySide {
  bool sending;
  Index row_coord, col_coord;   // my process in my grid
  Index row_stride, col_stride; // local offset of (row segment local r, column segment local c) = r·row_stride + c·col_stride
};

// The message between me and one peer: for each column j of its column segments, in order, the
// copied rows of each of its row segments.
// `offsets` counts the local offsets the loop computes: a piece's start where a column's rows lie
// together in this side's storage, each element's where they do not.
PeerPlan message(const SubmatrixCopy& copy, const CopySide& side, const std::vector<Segment>& row_segments,
                 const std::vector<Segment>& col_segments, Index& offsets) {
  PeerPlan plan;
  RunBuilder runs(plan, true);
  for (const Segment& c : col_segments) {
    for (Index dj = 0; dj < c.length; ++dj) {
      const Index j = c.first + dj;
      const auto [lo, hi] = copied_rows(copy, j);
      const Index col_local = (side.sending ? c.source_local : c.dest_local) + dj;
      for (const Segment& r : row_segments) {
        const Index from = std::max(lo, r.first), to = std::min(hi, r.first + r.length);
        if (from >= to) continue;
        const Index row_local = (side.sending ? r.source_local : r.dest_local) + (from - r.first);
        const Index start = row_local * side.row_stride + col_local * side.col_stride;
        if (side.row_stride == 1) {
          runs.add_run(start, to - from);
          ++offsets;
        } else {
          offsets += to - from;
          for (Index k = 0; k < to - from; ++k) runs.add(start + k * side.row_stride);
        }
      }
    }
  }
  return plan;
}

// The peer plans of one side: one per peer process with data.
std::vector<PeerPlan> side_plans(const SubmatrixCopy& copy, const CopySide& side, const std::vector<Segment>& rows,
                                 const std::vector<Segment>& cols, Index& offsets) {
  const StoredMatrix& peer = side.sending ? copy.to : copy.from;
  // The peer grid's dimension each segment list indexes: rows pair with the destination's rows,
  // or its columns when transposed.
  const bool swap = copy.transpose && side.sending;
  const bool swap_own = copy.transpose && !side.sending;
  const Index peer_row_coords = swap ? peer.cols.procs() : peer.rows.procs();
  const Index peer_col_coords = swap ? peer.rows.procs() : peer.cols.procs();
  const Index my_row = swap_own ? side.col_coord : side.row_coord;
  const Index my_col = swap_own ? side.row_coord : side.col_coord;
  const bool whole = copy.part == MatrixPart::All;
  const auto row_groups = by_peer(rows, my_row, peer_row_coords, side.sending, whole);
  const auto col_groups = by_peer(cols, my_col, peer_col_coords, side.sending, whole);
  std::vector<PeerPlan> plans;
  for (Index a = 0; a < peer_row_coords; ++a) {
    if (row_groups[static_cast<std::size_t>(a)].empty()) continue;
    for (Index b = 0; b < peer_col_coords; ++b) {
      if (col_groups[static_cast<std::size_t>(b)].empty()) continue;
      PeerPlan plan =
          message(copy, side, row_groups[static_cast<std::size_t>(a)], col_groups[static_cast<std::size_t>(b)], offsets);
      if (plan.elements == 0) continue;
      const Index pr = swap ? b : a, pc = swap ? a : b;
      plan.peer = peer.grid_ranks[static_cast<std::size_t>(pr * peer.cols.procs() + pc)];
      plans.push_back(std::move(plan));
    }
  }
  std::sort(plans.begin(), plans.end(), [](const PeerPlan& x, const PeerPlan& y) { return x.peer < y.peer; });
  return plans;
}

std::string grid_problem(const StoredMatrix& m, const char* name) {
  const Index processes = m.rows.procs() * m.cols.procs();
  if (static_cast<Index>(m.grid_ranks.size()) != processes) {
    return std::string(name) + ": " + std::to_string(m.grid_ranks.size()) + " ranks given for a " +
           std::to_string(m.rows.procs()) + " x " + std::to_string(m.cols.procs()) + " process grid";
  }
  std::set<Rank> seen;
  for (const Rank r : m.grid_ranks) {
    if (r < 0 || !seen.insert(r).second) {
      return std::string(name) + ": rank " + std::to_string(r) + " is " + (r < 0 ? "negative" : "in the grid twice");
    }
  }
  return {};
}

std::string window_problem(const StoredMatrix& m, Index row0, Index col0, Index rows, Index cols, const char* name) {
  if (row0 < 0 || col0 < 0) return std::string(name) + ": the submatrix starts at a negative row or column";
  if (rows == 0 || cols == 0) return {};
  if (row0 + rows > m.rows.size()) {
    return std::string(name) + ": rows " + std::to_string(row0 + 1) + " to " + std::to_string(row0 + rows) +
           " of a matrix of " + std::to_string(m.rows.size());
  }
  if (col0 + cols > m.cols.size()) {
    return std::string(name) + ": columns " + std::to_string(col0 + 1) + " to " + std::to_string(col0 + cols) +
           " of a matrix of " + std::to_string(m.cols.size());
  }
  return {};
}

std::string leading_dim_problem(const StoredMatrix& m, Rank me, const char* name) {
  const Index process = m.process_of(me);
  if (process < 0) return {};
  const Index local_rows = m.rows.local_size(process / m.cols.procs());
  if (m.leading_dim < std::max(Index{1}, local_rows)) {
    return std::string(name) + ": leading dimension " + std::to_string(m.leading_dim) + " below the " +
           std::to_string(local_rows) + " local rows of rank " + std::to_string(me);
  }
  return {};
}

}  // namespace

Index StoredMatrix::process_of(Rank rank) const {
  const auto at = std::find(grid_ranks.begin(), grid_ranks.end(), rank);
  return at == grid_ranks.end() ? -1 : static_cast<Index>(at - grid_ranks.begin());
}

std::string submatrix_copy_problem(const SubmatrixCopy& copy, Rank me) {
  if (copy.rows < 0 || copy.cols < 0) {
    return "negative submatrix size " + std::to_string(copy.rows) + " x " + std::to_string(copy.cols);
  }
  const Index to_rows = copy.transpose ? copy.cols : copy.rows;
  const Index to_cols = copy.transpose ? copy.rows : copy.cols;
  for (const std::string& problem :
       {grid_problem(copy.from, "source"), grid_problem(copy.to, "destination"),
        window_problem(copy.from, copy.from_row0, copy.from_col0, copy.rows, copy.cols, "source"),
        window_problem(copy.to, copy.to_row0, copy.to_col0, to_rows, to_cols, "destination"),
        leading_dim_problem(copy.from, me, "source"), leading_dim_problem(copy.to, me, "destination")}) {
    if (!problem.empty()) return problem;
  }
  return {};
}

namespace {

// The segments of sub-rows and of sub-columns. Sub-rows pair source rows with destination rows
// (columns if transposed); sub-columns likewise.
std::pair<std::vector<Segment>, std::vector<Segment>> copy_segments(const SubmatrixCopy& copy) {
  const BlockCyclic& dest_of_rows = copy.transpose ? copy.to.cols : copy.to.rows;
  const BlockCyclic& dest_of_cols = copy.transpose ? copy.to.rows : copy.to.cols;
  const Index dest_row0 = copy.transpose ? copy.to_col0 : copy.to_row0;
  const Index dest_col0 = copy.transpose ? copy.to_row0 : copy.to_col0;
  return {segments(copy.from.rows, copy.from_row0, dest_of_rows, dest_row0, copy.rows),
          segments(copy.from.cols, copy.from_col0, dest_of_cols, dest_col0, copy.cols)};
}

}  // namespace

RankPlan submatrix_plan(const SubmatrixCopy& copy, Rank me, Work* counted) {
  RankPlan plan;
  if (copy.rows == 0 || copy.cols == 0) return plan;
  const auto [rows, cols] = copy_segments(copy);
  Index offsets = 0;
  if (const Index p = copy.from.process_of(me); p >= 0) {
    const CopySide side{true, p / copy.from.cols.procs(), p % copy.from.cols.procs(), 1, copy.from.leading_dim};
    plan.sends = side_plans(copy, side, rows, cols, offsets);
  }
  if (const Index q = copy.to.process_of(me); q >= 0) {
    const Index lld = copy.to.leading_dim;
    const CopySide side{false, q / copy.to.cols.procs(), q % copy.to.cols.procs(), copy.transpose ? lld : 1,
                    copy.transpose ? 1 : lld};
    plan.receives = side_plans(copy, side, rows, cols, offsets);
  }
  if (counted != nullptr) {
    counted->add(WorkKind::Intersection, static_cast<Index>(rows.size() + cols.size()));
    counted->add(WorkKind::IndexOp, offsets);
  }
  return plan;
}

}  // namespace redist
