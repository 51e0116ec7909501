#include "redist/mpi/redistribute.hpp"

#include <stdexcept>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/mpi/agreement.hpp"
#include "redist/mpi/direct_exchange.hpp"
#include "redist/mpi/shared_memory_exchange.hpp"
#include "redist/mpi/layout_fingerprint.hpp"
#include "redist/mpi/message_memory_cache.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/redistribute/input_checks.hpp"

namespace redist::mpi {
namespace {

std::uint64_t digest(const Layout& source, const Layout& dest, const RedistributeOptions& o) {
  return fingerprint(describe(source) + "|" + describe(dest) + "|" + std::to_string(o.elem_bytes) + "|" + o.indexing +
                     "|" + o.schedule + "|" + std::to_string(o.ranks.source_first) + "," +
                     std::to_string(o.ranks.dest_first) + "|" + (shared_memory_wanted() ? "shm" : "messages"));
}

}  // namespace

RedistributeReport redistribute(MPI_Comm comm, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const Options& options) {
  const RedistributeOptions resolved = resolve_defaults(options);
  MpiTransport transport(comm);
  std::string problem = call_problem(source, dest, resolved, transport.size());
  if (problem.empty()) {
    problem = buffer_problem(source, dest, resolved, transport.rank(), source_local.size(), dest_local.size());
  }
  agree_on_input(transport.comm(), digest(source, dest, resolved), problem, "layouts or options");
  // A schedule, or the papers' work accounting, runs the algorithms' exchange as written. redist's
  // own asynchronous exchange copies each byte as few times as MPI allows: through shared memory
  // when the ranks share a node and calls repeat, else as messages, in place where pieces are long
  // (direct_exchange.hpp).
  if (resolved.schedule != "async" || resolved.work != "redist") {
    return redist::redistribute(transport, source, dest, source_local, dest_local, resolved);
  }
  RedistributeReport report;
  const double start = transport.now();
  Work counted;
  const RankPlan plan = make_plan(indexing_method(resolved.indexing), source, dest, resolved.ranks, transport.rank(),
                                  true, counted);
  report.phases.index = transport.now() - start;
  if (use_shared_memory(comm)) {
    exchange_shared_memory(comm, plan, resolved.elem_bytes, source_local, dest_local, report);
  } else {
    exchange_direct(transport, plan, resolved.elem_bytes, source_local, dest_local, report);
  }
  report.phases.total = transport.now() - start;
  return report;
}

void release_buffers() { release_cached_message_memory(); }

void release_buffers(MPI_Comm comm) {
  release_buffers();
  release_shared_memory(comm);
}

}  // namespace redist::mpi
