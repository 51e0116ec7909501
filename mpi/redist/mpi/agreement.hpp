// Collective checks of input: the ranks find out together whether any of them was given bad input,
// so that all of them fail with the same message instead of some waiting forever for the others.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

namespace redist::mpi {

/// Collective over `comm`. `digest` summarises what this rank was asked to do; `problem` is this
/// rank's complaint about its own input (empty: none). Throws std::invalid_argument with the same
/// message on every rank when the digests differ ("the ranks were given different <what> (rank K
/// differs from rank 0; ...)", K the lowest rank whose digest is not rank 0's) or when any rank has
/// a problem ("rank K: <K's problem>", K the lowest such rank). Returns on every rank otherwise,
/// after one MPI_Allreduce (a failure spends a few more collectives to name the rank).
void agree_on_input(MPI_Comm comm, std::uint64_t digest, const std::string& problem, const std::string& what);

/// Collective over `comm`: the problem half of agree_on_input alone.
void agree_on_problems(MPI_Comm comm, const std::string& problem);

}  // namespace redist::mpi
