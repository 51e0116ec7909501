// A RankMap places P source and Q destination processors among the communicator's ranks; first
// ranks that are negative or leave a processor outside the communicator would make ranks wait for
// (or write to) processors that do not exist. Checked on every rank before anything moves.
#pragma once

#include <string>

#include "redist/redistribute/rank_map.hpp"

namespace redist::mpi {

/// Why `ranks` cannot place its first source or destination processor on a communicator of `size`
/// ranks (negative, or not below `size`), or empty. Check it before ranks_needed, which it keeps
/// from overflowing.
std::string rank_map_problem(const RankMap& ranks, int size);

}  // namespace redist::mpi
