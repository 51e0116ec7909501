// Redistribution of a symmetric matrix along one dimension (paper 002), by TR or SRA:
//
//   redist::SymmetricProblem problem{.n = 1500, .procs = 3, .x = 500, .y = 1};  // BC(BLOCK,*) -> BC(CYCLIC,*)
//   auto report = redist::redistribute_symmetric(transport, problem, redist::SymmetricMethod::Sra, 4,
//                                                my_source_lines, my_dest_lines);
//
// Phases as paper 002 reports them: comp = index + pack + unpack (SRA's local rebuild, done while the
// messages travel, is part of unpack), comm = the exchange without unpacking, total = all of it.
#pragma once

#include <span>

#include "redist/redistribute/verified_run.hpp"
#include "redist/symmetric/symmetric_problem.hpp"

namespace redist {

/// Collective over ranks 0..P-1 of the transport (which must have exactly P ranks). `source_slab`
/// holds this rank's source lines (source().local_size(rank) × n elements of elem_bytes bytes, in
/// SymmetricProblem::offset order), `dest_slab` receives its destination lines; both empty on a
/// phantom transport. `work` says whose work is counted (SymmetricWork). Throws
/// std::invalid_argument for a bad problem, rank count or buffer size.
RedistributeReport redistribute_symmetric(Transport& transport, const SymmetricProblem& problem,
                                          SymmetricMethod method, Index elem_bytes,
                                          std::span<const std::byte> source_slab, std::span<std::byte> dest_slab,
                                          SymmetricWork work = SymmetricWork::Redist);

/// Value of matrix element (row, col): the same for (col, row), distinct for distinct pairs.
void fill_symmetric_element(Index n, Index row, Index col, std::byte* out, Index elem_bytes);

/// Fills this rank's source lines with a symmetric matrix, redistributes them, and checks that every
/// destination element holds its matrix value (not checked on phantom transports).
VerifiedReport redistribute_symmetric_and_verify(Transport& transport, const SymmetricProblem& problem,
                                                 SymmetricMethod method, Index elem_bytes,
                                                 SymmetricWork work = SymmetricWork::Redist);

}  // namespace redist
