// ScaLAPACK's pdgemr2d (REDIST/SRC/pdgemr.c) over redist's message layer, so that the simulator can
// run it and price it with a platform's values beside redist's own methods. Same messages (the
// intersection of sub(A) on one process with sub(B) on another), same order, same local work:
//   1. the parameters exchanged by an all-ranks minimum (blacs_combine.hpp);
//   2. the change of origin and a send and a receive buffer, each as large as the rank's part of
//      the submatrix, allocated on every call;
//   3. a loop over the caterpillar's slots (pdgemr2d_geometry.hpp): at each step a rank scans the
//      intervals it sends to the slot it meets (pdgemr2d_intervals.hpp) and packs them element by
//      element into its send buffer; then the rank of the higher slot receives first and sends
//      second, the lower one sends first, each send and receive blocking; a rank's message to
//      itself is copied from its send buffer to its receive buffer; each message received is
//      unpacked element by element into the destination storage before the next step.
// What it leaves out: a global context that is not one row of processes (pdgemr2d then builds one,
// a grid creation redist does not time), and its debug checks (compiled out with NDEBUG).
#pragma once

#include <cstddef>
#include <span>

#include "redist/indexing/submatrix_plan.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/transport/transport.hpp"

namespace redist {

/// Copies sub(from) to sub(to) as pdgemr2d does. Collective over every rank of `transport`
/// (pdgemr2d's global context: rank r is process r of one row); `copy` as the calling rank sees it
/// (its own LLDs), a whole submatrix, not transposed. `a_local` is this rank's source storage and
/// `b_local` its destination storage (column-major with its LLD), elements of `elem_bytes` bytes;
/// both may be empty on a phantom transport (sizes travel, nothing is copied). Phases: index (the
/// interval scans, buffers and bookkeeping), pack (into the send buffer), comm (the parameter
/// exchange and the blocking sends and receives), unpack (the copy to itself and the unpacking),
/// total. Throws std::invalid_argument for a trapezoid, a transposition, a submatrix_copy_problem,
/// a grid rank outside the transport, or storage too small for this rank's part.
RedistributeReport pdgemr2d_copy(Transport& transport, const SubmatrixCopy& copy, std::span<const std::byte> a_local,
                                 std::span<std::byte> b_local, Index elem_bytes);

}  // namespace redist
