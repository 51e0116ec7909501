// Every rank of an mpirun parses its own command line (an MPMD launch may give each its own): the
// ranks agree that all of them parsed the same valid arguments before any of them does anything,
// so that one bad or different argument makes every rank stop with the same line instead of
// leaving the others waiting in a collective forever.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace redist::mpi::cli {

/// The parsed subcommand and every option's given values, as one text (equal iff the same
/// arguments were given, in any order).
std::string normalised_arguments(const CLI::App& app);

/// Collective over MPI_COMM_WORLD. `problem`: this rank's parse error, or empty. Throws
/// std::invalid_argument, the same on every rank: "rank K: <problem>" for the lowest rank K with a
/// problem, else "the ranks were given different arguments (rank K differs from rank 0; ...)".
void agree_on_arguments(const std::string& problem, const std::string& normalised);

}  // namespace redist::mpi::cli
