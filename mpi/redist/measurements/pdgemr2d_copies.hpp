// ScaLAPACK's own pdgemr2d timed as local work, for `redist calibrate`'s price of an element copied
// one at a time (cost.element_copied): every rank copies a matrix on a BLACS grid of its own (1 x 1,
// over MPI_COMM_SELF), where pdgemr2d's loop has one step and no message — it packs the submatrix
// element by element into its send buffer, copies that into its receive buffer and unpacks it —
// all ranks at once, caches emptied first, as `localwork`'s other copies. Each row carries the work
// redist's pdgemr2d model (redist/pdgemr2d/) counts for the same copy.
#pragma once

#include <nlohmann/json.hpp>

namespace redist::measurements {

/// Rows {"work": {price property: count}, "seconds": fastest run on this rank}.
nlohmann::ordered_json measure_pdgemr2d_copies();

}  // namespace redist::measurements
