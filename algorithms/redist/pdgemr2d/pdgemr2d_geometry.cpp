#include "redist/pdgemr2d/pdgemr2d_geometry.hpp"

#include <algorithm>
#include <stdexcept>

namespace redist {
namespace {

// pdgemr2d's change of origin for one dimension of a matrix (pgemraux.c's changeorigin): the
// submatrix starting at global index `start` becomes one starting at start mod block, on the
// process that holds its first block; a process that holds an earlier block of that cycle skips it.
struct Origin {
  Pdgemr2dDimension dim;
  Index local_shift = 0;  ///< local indices before the new matrix's first, on `coord` (0 outside the grid)
};

Origin change_origin(const BlockCyclic& layout, Index start, Index extent, Index coord) {
  const Index block = layout.block_size(), procs = layout.procs();
  const Index first_block = (start / block) % procs;
  Origin out;
  out.dim.block = block;
  out.dim.procs = procs;
  out.dim.first = (layout.first_proc() + first_block) % procs;
  out.dim.offset = start % block;
  out.dim.extent = extent;
  if (coord >= 0) {
    out.local_shift = start / (block * procs) * block + (floor_mod(coord - layout.first_proc(), procs) < first_block ? block : 0);
  }
  if (procs == 1) out.dim.block = out.dim.offset + extent;  // one process: one block, one interval
  return out;
}

// Local size, on `coord`, of the shifted matrix's offset + extent indices of this dimension
// (pgemraux.c's localsize on the shifted coordinate).
Index shifted_local_size(const Pdgemr2dDimension& d, Index coord) {
  return BlockCyclic(d.offset + d.extent, std::max<Index>(1, d.block), d.procs, d.first).local_size(coord);
}

struct Side {
  Pdgemr2dDimension rows, cols;
  Pdgemr2dPlace place;
};

Side side(const StoredMatrix& m, Index row0, Index col0, Index rows, Index cols, Rank me) {
  const Index process = m.process_of(me);
  Side out;
  out.place.in_grid = process >= 0;
  if (out.place.in_grid) {
    out.place.row = process / m.cols.procs();
    out.place.col = process % m.cols.procs();
    out.place.leading_dim = m.leading_dim;
  }
  const Origin r = change_origin(m.rows, row0, rows, out.place.row);
  const Origin c = change_origin(m.cols, col0, cols, out.place.col);
  out.rows = r.dim;
  out.cols = c.dim;
  if (out.place.in_grid) {
    out.place.base = r.local_shift + c.local_shift * m.leading_dim;
    out.place.buffer_elements = shifted_local_size(r.dim, out.place.row) * shifted_local_size(c.dim, out.place.col);
  }
  return out;
}

}  // namespace

void check_pdgemr2d_copy(const SubmatrixCopy& copy, Rank me) {
  if (copy.part != MatrixPart::All || copy.unit_diagonal) {
    throw std::invalid_argument("pdgemr2d copies a whole submatrix: a trapezoid is p?trmr2d's");
  }
  if (copy.transpose) throw std::invalid_argument("pdgemr2d does not transpose: that is p?tran's");
  if (const std::string problem = submatrix_copy_problem(copy, me); !problem.empty()) {
    throw std::invalid_argument("pdgemr2d: " + problem);
  }
}

Pdgemr2dGeometry pdgemr2d_geometry(const SubmatrixCopy& copy, Rank me, Rank ranks) {
  Pdgemr2dGeometry g;
  const Side from = side(copy.from, copy.from_row0, copy.from_col0, copy.rows, copy.cols, me);
  const Side to = side(copy.to, copy.to_row0, copy.to_col0, copy.rows, copy.cols, me);
  g.from_rows = from.rows, g.from_cols = from.cols, g.from = from.place;
  g.to_rows = to.rows, g.to_cols = to.cols, g.to = to.place;
  g.from_ranks = copy.from.grid_ranks;
  g.to_ranks = copy.to.grid_ranks;
  // pdgemr.c's init_chenille: the grid process each rank plays on each side, then slots — ranks in
  // both grids first (each its sender and receiver slot at once), then senders only, then receivers
  // only, each group in rank order.
  std::vector<Index> as_sender(static_cast<std::size_t>(ranks), -1), as_receiver(as_sender.size(), -1);
  for (std::size_t p = 0; p < g.from_ranks.size(); ++p) as_sender.at(static_cast<std::size_t>(g.from_ranks[p])) = static_cast<Index>(p);
  for (std::size_t p = 0; p < g.to_ranks.size(); ++p) as_receiver.at(static_cast<std::size_t>(g.to_ranks[p])) = static_cast<Index>(p);
  const std::size_t steps = std::max(g.from_ranks.size(), g.to_ranks.size());
  g.sender.assign(steps, -1);
  g.receiver.assign(steps, -1);
  std::size_t senders = 0, receivers = 0;
  for (Rank r = 0; r < ranks; ++r) {
    const auto at = static_cast<std::size_t>(r);
    if (as_sender[at] < 0 || as_receiver[at] < 0) continue;
    if (r == me) g.slot = static_cast<Index>(senders);
    g.sender[senders++] = as_sender[at];
    g.receiver[receivers++] = as_receiver[at];
  }
  for (Rank r = 0; r < ranks; ++r) {
    const auto at = static_cast<std::size_t>(r);
    if (as_sender[at] < 0 || as_receiver[at] >= 0) continue;
    if (r == me) g.slot = static_cast<Index>(senders);
    g.sender[senders++] = as_sender[at];
  }
  for (Rank r = 0; r < ranks; ++r) {
    const auto at = static_cast<std::size_t>(r);
    if (as_receiver[at] < 0 || as_sender[at] >= 0) continue;
    if (r == me) g.slot = static_cast<Index>(receivers);
    g.receiver[receivers++] = as_receiver[at];
  }
  return g;
}

}  // namespace redist
