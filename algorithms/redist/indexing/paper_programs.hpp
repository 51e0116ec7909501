// The work of the programs paper 000 timed (Hsu, Chung, Dow, "Packing/unpacking information
// generation for efficient generalized kr -> r and r -> kr array redistribution"): Krr, PITFALLS and
// Prylli's method, written by the paper's authors in C + MPI and run on an IBM SP2. redist's own
// implementations of these methods are faster (one plan driver, run lists, tight strided copies);
// a replay of the paper's tables counts what the paper's loops do instead (`work: paper`). Each
// method's registry entry (indexing_methods.hpp) names its program here; the accounting that
// charges it is redist/redistribute/work_accounting.hpp's.
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

#include <cstddef>

#include "redist/indexing/cyclic_pair.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"

namespace redist {

/// The program a paper timed for an indexing method, whose work `work: paper` charges instead of
/// redist's own: what sets one paper's program apart from another's.
struct PaperProgram {
  /// Index-phase work of one side (sender or receiver) exchanging `messages` messages; null: the
  /// program's work is redist's own (paper 004's naive program, timed on communication only).
  Work (*side_index_work)(const SideView& side, std::size_t messages) = nullptr;
  /// Whether the index phase also charges the IndexOps redist's implementation counted (PITFALLS
  /// and Prylli run the same intersection algorithms as redist's).
  bool charges_counted_index_ops = false;
  /// Intersection records the copy loop reads per piece packed or unpacked (RecordCopied: a record
  /// read, not an intersection computed).
  Index records_per_piece = 0;
};

/// Paper 000's programs.
extern const PaperProgram kKrrPaperProgram;
extern const PaperProgram kPitfallsPaperProgram;
extern const PaperProgram kPrylliPaperProgram;
/// Paper 004's naive program: redist's own accounting.
extern const PaperProgram kNaivePaperProgram;

/// Index-phase work of `program` on rank `me`, which exchanges with the peers of `plan`; `counted`
/// is what redist's implementation of the method counted.
Work paper_index_work(const PaperProgram& program, const CyclicPair& pair, const RankMap& ranks, Rank me,
                      const RankPlan& plan, const Work& counted);

/// Work of `program` packing (or unpacking) the message described by `peer`.
Work paper_copy_work(const PaperProgram& program, const PeerPlan& peer, Index elem_bytes);

}  // namespace redist
