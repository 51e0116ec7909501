#include "redist/mpi/redistribute.hpp"

#include <stdexcept>

#include "redist/mpi/agreement.hpp"
#include "redist/mpi/layout_fingerprint.hpp"
#include "redist/mpi/message_memory_cache.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/mpi/rank_map_check.hpp"
#include "redist/redistribute/methods.hpp"

namespace redist::mpi {
namespace {

// The fastest combination in bench/mpi_vs_pdgemr2d on 4 ranks (see mpi/README.md).
constexpr const char* kDefaultIndexing = "prylli";
constexpr const char* kDefaultSchedule = "async";

std::string size_problem(std::size_t have, Index elements, Index elem_bytes, const char* which) {
  const Index need = elements * elem_bytes;
  if (static_cast<Index>(have) == need) return {};
  return std::string(which) + " buffer holds " + std::to_string(have) + " bytes, its layout needs " +
         std::to_string(need);
}

// This rank's complaint about its own input, or empty.
std::string input_problem(int rank, int ranks, const Layout& source, const Layout& dest, std::size_t source_bytes,
                          std::size_t dest_bytes, const RedistributeOptions& o) {
  try {
    indexing_from_name(o.indexing);
    schedule_from_name(o.schedule);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (o.elem_bytes <= 0) return "element size must be positive, got " + std::to_string(o.elem_bytes);
  if (source.size() != dest.size()) {
    return "source and destination layouts describe arrays of " + std::to_string(source.size()) + " and " +
           std::to_string(dest.size()) + " elements";
  }
  if (auto problem = rank_map_problem(o.ranks, ranks); !problem.empty()) return problem;
  const Index needed = o.ranks.ranks_needed(source.processors(), dest.processors());
  if (needed > ranks) {
    return "the layouts need " + std::to_string(needed) + " ranks, the communicator has " + std::to_string(ranks);
  }
  const auto p = o.ranks.source_of(rank, source.processors());
  const auto q = o.ranks.dest_of(rank, dest.processors());
  std::string problem = size_problem(source_bytes, p ? source.local_size(*p) : 0, o.elem_bytes, "source");
  if (problem.empty()) problem = size_problem(dest_bytes, q ? dest.local_size(*q) : 0, o.elem_bytes, "destination");
  return problem;
}

std::uint64_t digest(const Layout& source, const Layout& dest, const RedistributeOptions& o) {
  return fingerprint(describe(source) + "|" + describe(dest) + "|" + std::to_string(o.elem_bytes) + "|" + o.indexing +
                     "|" + o.schedule + "|" + std::to_string(o.ranks.source_first) + "," +
                     std::to_string(o.ranks.dest_first));
}

}  // namespace

RedistributeOptions resolve(const Options& options) {
  return {options.elem_bytes, options.indexing == kDefault ? kDefaultIndexing : options.indexing,
          options.schedule == kDefault ? kDefaultSchedule : options.schedule, options.ranks};
}

RedistributeReport redistribute(MPI_Comm comm, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const Options& options) {
  const RedistributeOptions resolved = resolve(options);
  MpiTransport transport(comm);
  const std::string problem = input_problem(transport.rank(), transport.size(), source, dest, source_local.size(),
                                            dest_local.size(), resolved);
  agree_on_input(transport.comm(), digest(source, dest, resolved), problem, "layouts or options");
  return redist::redistribute(transport, source, dest, source_local, dest_local, resolved);
}

void release_buffers() { release_cached_message_memory(); }

}  // namespace redist::mpi
