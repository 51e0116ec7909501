#include "redist/pdgemr2d/pdgemr2d_intervals.hpp"

#include <algorithm>

namespace redist {

std::vector<Pdgemr2dInterval> pdgemr2d_scan(const Pdgemr2dDimension& own, Index own_coord, const Pdgemr2dDimension& peer,
                                            Index peer_coord, Work& work) {
  std::vector<Pdgemr2dInterval> out;
  const Index n = own.extent;
  // Where each side's first block starts, counted from the submatrix's first index.
  Index j0 = floor_mod(own_coord - own.first, own.procs) * own.block - own.offset;
  Index j1 = floor_mod(peer_coord - peer.first, peer.procs) * peer.block - peer.offset;
  const Index width0 = own.procs * own.block, width1 = peer.procs * peer.block;
  Index local = 0;  // local index of the start of this side's block
  Index steps = 0;
  while (j0 < n && j1 < n) {
    ++steps;
    const Index end0 = j0 + own.block, end1 = j1 + peer.block;
    if (end0 <= j1) {
      j0 += width0;
      local += own.block;
      continue;
    }
    if (end1 <= j0) {
      j1 += width1;
      continue;
    }
    const Index start = std::max<Index>({j0, j1, 0});
    const Index end = std::min(end0, end1);
    const Index first = local + start - j0;
    if (end0 == end) {
      j0 += width0;
      local += own.block;
    }
    if (end1 == end) j1 += width1;
    out.push_back({first, std::min(end, n) - start});
  }
  work.add(WorkKind::Intersection, steps);
  return out;
}

Index Pdgemr2dMessage::elements() const {
  Index r = 0, c = 0;
  for (const Pdgemr2dInterval& i : rows) r += i.length;
  for (const Pdgemr2dInterval& i : cols) c += i.length;
  return r * c;
}

namespace {

// The message between this rank's place on one side (its rows and columns) and process
// `peer_process` of the other side's grid, scanned from this rank's side.
Pdgemr2dMessage scanned_message(const Pdgemr2dDimension& own_rows, const Pdgemr2dDimension& own_cols,
                                const Pdgemr2dPlace& own, const Pdgemr2dDimension& peer_rows,
                                const Pdgemr2dDimension& peer_cols, Index peer_process) {
  Pdgemr2dMessage m;
  m.rows = pdgemr2d_scan(own_rows, own.row, peer_rows, peer_process / peer_cols.procs, m.scan);
  m.cols = pdgemr2d_scan(own_cols, own.col, peer_cols, peer_process % peer_cols.procs, m.scan);
  return m;
}

}  // namespace

Pdgemr2dMessage pdgemr2d_send_message(const Pdgemr2dGeometry& g, Index to_process) {
  return scanned_message(g.from_rows, g.from_cols, g.from, g.to_rows, g.to_cols, to_process);
}

Pdgemr2dMessage pdgemr2d_receive_message(const Pdgemr2dGeometry& g, Index from_process) {
  return scanned_message(g.to_rows, g.to_cols, g.to, g.from_rows, g.from_cols, from_process);
}

Work pdgemr2d_copy_work(const Pdgemr2dMessage& message, Index elem_bytes) {
  const Index elements = message.elements();
  Index columns = 0;
  for (const Pdgemr2dInterval& c : message.cols) columns += c.length;
  Work work;
  work.add(WorkKind::ElementCopied, elements);
  work.add(WorkKind::ByteCopied, elements * elem_bytes);
  work.add(WorkKind::RunCopied, columns * static_cast<Index>(message.rows.size()));
  work.add(WorkKind::RecordCopied, static_cast<Index>(message.rows.size() * message.cols.size()));
  return work;
}

Work pdgemr2d_self_copy_work(Index elements, Index elem_bytes) {
  Work work;
  if (elements == 0) return work;
  work.add(WorkKind::ElementCopied, elements);
  work.add(WorkKind::ByteCopied, elements * elem_bytes);
  work.add(WorkKind::RunCopied, 1);
  return work;
}

}  // namespace redist
