// What a pdgemr2d call does before its step loop (REDIST/SRC/pdgemr.c): the vector of parameters
// every rank contributes to the all-ranks minimum (its grids' shapes, descriptors and submatrix
// corners where it is in a grid, and which rank plays which grid process; a large number
// elsewhere), and the bookkeeping work of the call (its allocations, its changes of origin and
// buffer sizes, its caterpillar's tables).
#pragma once

#include <span>
#include <vector>

#include "redist/pdgemr2d/blacs_combine.hpp"
#include "redist/pdgemr2d/pdgemr2d_geometry.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// Rank `me`'s parameters: 20 values, then for each source grid process and each destination one
/// the rank that plays it (ScaLAPACK's proc0 and proc1, `ranks` entries each).
std::vector<BlacsInt> pdgemr2d_parameters(const SubmatrixCopy& copy, Rank me, Rank ranks);

/// Checks that the combined parameters describe `copy` (every grid process found, the descriptors
/// as given); throws std::logic_error otherwise.
void check_pdgemr2d_parameters(const SubmatrixCopy& copy, std::span<const BlacsInt> combined, Rank ranks);

/// The work of the call besides its scans and copies: its blocks allocated (the parameters, the two
/// interval tables, the caterpillar's table, a buffer per grid the rank is in with data), the
/// index arithmetic of its four changes of origin and two buffer sizes, and the elements of its
/// tables it fills and scans.
Work pdgemr2d_setup_work(const Pdgemr2dGeometry& g, Rank ranks);

}  // namespace redist
