// pdgemr2d's index computation (REDIST/SRC/pgemraux.c's scan_intervals): for one dimension, walk
// the blocks of this process and of one peer process of the other matrix together, one block per
// step, and keep each overlap as an interval of this process's local indices. Rows and columns are
// scanned apart; the message between the two processes is every column interval times every row
// interval. Unlike redist's interval scan (indexing/interval_scan.hpp), blocks without an overlap
// are passed one at a time, as pdgemr2d does: its steps grow with the blocks, not the overlaps.
#pragma once

#include <vector>

#include "redist/pdgemr2d/pdgemr2d_geometry.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// An interval of a process's local indices in one dimension (pdgemr2d's IDESC).
struct Pdgemr2dInterval {
  Index local = 0;   ///< first local index, counted from the shifted matrix's first
  Index length = 0;
};

/// The intervals of `own` process `own_coord` that `peer` process `peer_coord` holds too, in
/// increasing order; each step of the scan (one block of either side passed or overlapped) is one
/// Intersection of `work`.
std::vector<Pdgemr2dInterval> pdgemr2d_scan(const Pdgemr2dDimension& own, Index own_coord, const Pdgemr2dDimension& peer,
                                            Index peer_coord, Work& work);

/// What one side of one step finds: the row and column intervals of this rank's part of the message.
struct Pdgemr2dMessage {
  std::vector<Pdgemr2dInterval> rows, cols;
  Work scan;  ///< the two scans' steps
  Index elements() const;
};

/// The message this rank sends to destination grid process `to_process` (in its source storage).
Pdgemr2dMessage pdgemr2d_send_message(const Pdgemr2dGeometry& g, Index to_process);
/// The message this rank receives from source grid process `from_process` (in its destination storage).
Pdgemr2dMessage pdgemr2d_receive_message(const Pdgemr2dGeometry& g, Index from_process);

/// pdgemr2d's copy of a message between local storage and its buffer (block2buff, buff2block): for
/// each column interval, for each row interval, the rectangle copied column by column, element by
/// element. Every element is an ElementCopied and its bytes ByteCopied, every column of every
/// rectangle a RunCopied (its inner loop started), every rectangle a RecordCopied (a pair of
/// intervals read).
Work pdgemr2d_copy_work(const Pdgemr2dMessage& message, Index elem_bytes);
/// The copy of a message to itself from the send buffer into the receive buffer (Clacpy): one loop
/// over its elements.
Work pdgemr2d_self_copy_work(Index elements, Index elem_bytes);

}  // namespace redist
