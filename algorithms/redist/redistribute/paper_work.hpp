// The work of the programs paper 000 timed (Hsu, Chung, Dow, "Packing/unpacking information
// generation for efficient generalized kr -> r and r -> kr array redistribution"): Krr, PITFALLS and
// Prylli's method, written by the paper's authors in C + MPI and run on an IBM SP2. redist's own
// implementations of these methods are faster (one plan driver, run lists, tight strided copies);
// a replay of the paper's tables counts what the paper's loops do instead (`work: paper`).
//
// Index phase, flat in N: every method describes one global complete cycle gcc = lcm(P·b_s, Q·b_d).
//  - Krr builds its information tables as sections 3-4 lay them out (Fig. 6: a row per peer, a column
//    per section). On the kr-block side, m = LCC / (k·r) sections, one equation (1)/(6) per section
//    (IndexOp) and a (CS, FI) cell per peer and section (TableEntry); on the r-block side a cell per
//    kr block of the cycle, gcc / (k·r) of them, each from equation (2)/(4) with its modulos (IndexOp
//    + TableEntry). It allocates a table row per message (Allocation).
//  - PITFALLS and Prylli intersect this processor's blocks with every peer processor's, empty
//    intersections included (section 2: "each processor needs to find out all intersections ...
//    with all other processors"): the operations redist's implementations of the same algorithms
//    count (IndexOp, Intersection), plus one intersection list allocated per peer processor
//    (Allocation).
//  - Every program also allocates, per side, its table (or list array), the per-peer message sizes,
//    the buffer pointers and the MPI requests: 4 arrays (Allocation).
//  Allocations dominate: a block from the allocator and the first touch of its page cost far more
//  than the table arithmetic, and their number depends on P, Q and the messages, not on N.
// Pack and unpack, per message: element-by-element copies (ByteCopied); a loop start per piece per
//  cycle — a Krr class chunk, a PITFALLS or Prylli intersection — never merged across cycles
//  (RunCopied); the method's own walk of its intersection records: PITFALLS' intersections are FALLS,
//  families of segments (l, r, s, n), stepped family and segment, two steps per piece; Prylli's are
//  a flat interval list, one step per piece (Intersection); Krr reads (CS, FI) straight from its
//  table (nothing more). Each message buffer is allocated (Allocation).
// Communication is what redist sends (every message at once); Krr unpacks messages in arrival order,
//  PITFALLS and Prylli in source order (RankPlan::unpack_order, set by the methods themselves).
#pragma once

#include <memory>

#include "redist/indexing/cyclic_pair.hpp"
#include "redist/redistribute/work_accounting.hpp"

namespace redist {

/// Index-phase work of the paper's program for `method` on rank `me`, which exchanges with the peers
/// of `plan`; `counted` is what redist's implementation of the method counted (PITFALLS and Prylli
/// run the same intersection algorithms, Krr builds fuller tables than redist's).
Work paper_index_work(std::string_view method, const CyclicPair& pair, const RankMap& ranks, Rank me,
                      const RankPlan& plan, const Work& counted);

/// Work of the paper's program for `method` packing (or unpacking) the message described by `peer`.
Work paper_copy_work(std::string_view method, const PeerPlan& peer, Index elem_bytes);

/// The accounting of the paper's program for `method` (krr, pitfalls or prylli on 1-D block-cyclic
/// layouts). Throws std::invalid_argument otherwise.
std::unique_ptr<WorkAccounting> paper_work_accounting(std::string_view method, const Layout& source, const Layout& dest,
                                                      const RankMap& ranks, Rank me);

}  // namespace redist
