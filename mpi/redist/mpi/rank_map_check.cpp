#include "redist/mpi/rank_map_check.hpp"

namespace redist::mpi {
namespace {

// The first processor must be a rank of [0, size). (That the last one fits too is ranks_needed's
// check, which this makes safe: first + count no longer overflows.)
std::string placement_problem(const char* which, Index first, int size) {
  const std::string what = std::string("RankMap: the first ") + which + " rank is " + std::to_string(first);
  if (first < 0) return what + ", negative";
  if (first >= size) return what + ", beyond the communicator's " + std::to_string(size) + " ranks";
  return {};
}

}  // namespace

std::string rank_map_problem(const RankMap& ranks, int size) {
  std::string problem = placement_problem("source", ranks.source_first, size);
  if (problem.empty()) problem = placement_problem("destination", ranks.dest_first, size);
  return problem;
}

}  // namespace redist::mpi
