#include "redist/mpi/own_exchange.hpp"

#include "redist/mpi/shared_memory_exchange.hpp"

namespace redist::mpi {

RedistributeReport exchange_own(MPI_Comm window_comm, MpiTransport& transport, const RankPlan& plan,
                                std::optional<MessageDatatypes>& datatypes, Index elem_bytes,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  RedistributeReport report;
  const double start = transport.now();
  const Rank me = transport.rank();
  if (use_shared_memory(window_comm, plan, source_local)) {
    exchange_shared_memory(window_comm, plan, elem_bytes, source_local, dest_local, report);
  } else {
    if (!datatypes) datatypes = MessageDatatypes::for_plan(plan, elem_bytes, me);
    exchange_direct(transport, plan, *datatypes, elem_bytes, source_local, dest_local, report);
  }
  report.phases.total = transport.now() - start;
  report.bytes_kept = elements_kept(plan, me) * elem_bytes;
  return report;
}

}  // namespace redist::mpi
