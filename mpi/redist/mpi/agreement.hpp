// Collective checks of input: the ranks find out together whether any of them was given bad input,
// so that all of them fail with the same message instead of some waiting forever for the others.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

namespace redist::mpi {

/// Collective over `comm`. `digest` summarises what this rank was asked to do; `problem` is this
/// rank's complaint about its own input (empty: none). Throws std::invalid_argument on every rank
/// when the digests differ ("ranks were given different ..." + `what`) or when any rank has a
/// problem (the lowest such rank's message, prefixed with its rank). Returns on every rank otherwise.
void agree_on_input(MPI_Comm comm, std::uint64_t digest, const std::string& problem, const std::string& what);

}  // namespace redist::mpi
