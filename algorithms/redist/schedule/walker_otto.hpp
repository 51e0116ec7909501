// Walker and Otto's schedule (paper 004, §3.2 and Remark 1) for CYCLIC(r) -> CYCLIC(K·r) on the
// same P processors: K steps, in each of which every processor sends exactly one message and
// receives exactly one, all of the same length r.
//
// Construction (in units of r elements, so CYCLIC(1) -> CYCLIC(K)): destination q's blocks hold
// units b·K + σ, σ in [0, K), which source (q·K + σ) mod P holds, whatever the block b; σ is the
// "slot" of the pair. At step k destination q receives slot σ = (k + t_q) mod K from source
// (q·K + σ) mod P, where t_q = ⌊q·d / P⌋ and d = gcd(K, P). For d = 1 this is Walker and Otto's
// step "q receives from (q·K + k) mod P"; the shift t_q keeps each step a permutation when d > 1
// (two destinations with the same source differ in t_q, hence in slot, modulo d).
// Decreasing the block size (r = K·s) runs the same schedule with senders and receivers swapped.
#pragma once

#include "redist/comm_grid/redistribution.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

/// Throws std::invalid_argument, naming the failed condition, unless P = Q, one block size is a
/// multiple K of the other, and K <= P (beyond that every pair exchanges several slots: the
/// exchange is all-to-all and does not fit in K one-message steps).
Schedule walker_otto_schedule(const Redistribution& redist);

}  // namespace redist
