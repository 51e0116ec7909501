#include "redist/mpi/own_exchange.hpp"

#include "redist/mpi/shared_window_publication.hpp"
#include "redist/redistribute/shared_memory_exchange.hpp"
#include "redist/redistribute/work_accounting.hpp"

namespace redist::mpi {

RedistributeReport exchange_own(MpiTransport& transport, const RankPlan& plan,
                                std::shared_ptr<const MessagePlaces>& places, Index elem_bytes,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  RedistributeReport report;
  const double start = transport.now();
  bool shared = use_shared_memory(transport.window_comm(), plan, source_local);
  if (shared) {
    try {
      exchange_shared_memory(transport, plan, elem_bytes, source_local, dest_local, redist_work_accounting(), report,
                             once_piece_bytes());
    } catch (const SharedMemoryUnavailable&) {  // on every rank, before anything was written
      report = RedistributeReport{};
      shared = false;
    }
  }
  if (!shared) {
    exchange_direct(transport, plan, MessagePlaces::kept(places, transport, plan, elem_bytes), elem_bytes, source_local,
                    dest_local, redist_work_accounting(), report);
  }
  report.phases.total = transport.now() - start;
  report.bytes_kept = elements_kept(plan, transport.rank()) * elem_bytes;
  return report;
}

}  // namespace redist::mpi
