#include "redist/redistribute/plan_exchange.hpp"

#include <vector>

#include "redist/redistribute/async_exchange.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/redistribute/scheduled_exchange.hpp"
#include "redist/redistribute/shared_memory_exchange.hpp"

namespace redist {

void exchange_plan(Transport& transport, const RankPlan& plan, Index elem_bytes, std::span<const std::byte> source_local,
                   std::span<std::byte> dest_local, const std::shared_ptr<const Schedule>& schedule,
                   const RankMap& ranks, RedistributeReport& report, const AfterUnpack& after_unpack,
                   StepProcedure procedure, const WorkAccounting& accounting) {
  const bool real = !transport.phantom();
  const double start = transport.now();

  // Pack every outgoing message, the one to ourselves included, into one buffer.
  ExchangeBuffers buffers = ExchangeBuffers::for_plan(plan, elem_bytes, transport);
  Work pack_work;
  std::vector<std::byte*> send_buffers;
  for (std::size_t k = 0; k < plan.sends.size(); ++k) {
    send_buffers.push_back(buffers.send_data(k));
    pack_work += accounting.pack(plan.sends[k], elem_bytes);
  }
  if (real) pack_messages(plan.sends, source_local, elem_bytes, send_buffers);
  transport.charge(pack_work);
  report.phases.pack = transport.now() - start;

  // Called once per message of a simulated all-to-all (millions): phantom runs allocate nothing here.
  const auto unpack_arrived = [&](std::span<const std::size_t> ks, std::span<const std::byte* const> data) {
    if (real) {
      std::vector<const PeerPlan*> arrived;
      for (const std::size_t k : ks) arrived.push_back(&plan.receives[k]);
      unpack_messages(arrived, data, elem_bytes, dest_local);
    }
    Work work;
    for (const std::size_t k : ks) {
      work += accounting.unpack(plan.receives[k], elem_bytes);
      if (after_unpack) work += after_unpack(plan.receives[k]);
    }
    transport.charge(work);
  };
  // Without steps, ranks that share memory hand their messages over in place, as redist's MPI layer does.
  const ExchangeTimes times =
      schedule                     ? exchange_scheduled(transport, plan, buffers, unpack_arrived, schedule, ranks, procedure)
      : transport.shares_memory()  ? exchange_shared_memory(transport, plan, buffers, unpack_arrived)
                                   : exchange_async(transport, plan, buffers, unpack_arrived);
  report.phases.comm = times.comm;
  report.phases.unpack = times.unpack;
  report.messages_sent = times.messages_sent;
  report.bytes_sent = times.bytes_sent;
}

}  // namespace redist
