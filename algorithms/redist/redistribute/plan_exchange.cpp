#include "redist/redistribute/plan_exchange.hpp"

#include <vector>

#include "redist/redistribute/async_exchange.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/redistribute/scheduled_exchange.hpp"

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
  std::vector<const PeerPlan*> packed;
  std::vector<std::byte*> send_buffers;
  for (std::size_t k = 0; k < plan.sends.size(); ++k) {
    packed.push_back(&plan.sends[k]);
    send_buffers.push_back(buffers.send_data(k));
    pack_work += accounting.pack(plan.sends[k], elem_bytes);
  }
  if (real) pack_messages(packed, source_local, elem_bytes, send_buffers);
  transport.charge(pack_work);
  report.phases.pack = transport.now() - start;

  // Called once per message of a simulated all-to-all (millions): phantom runs allocate nothing here.
  const auto unpack_arrived = [&](std::span<const std::size_t> ks, std::span<const std::byte* const> data) {
    Work work;
    std::vector<const PeerPlan*> arrived;
    std::vector<const std::byte*> arrived_data;
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const PeerPlan& receive = plan.receives[ks[i]];
      if (after_unpack) work += after_unpack(receive);
      work += accounting.unpack(receive, elem_bytes);
      if (real) {
        arrived.push_back(&receive);
        arrived_data.push_back(data[i]);
      }
    }
    if (real) unpack_messages(arrived, arrived_data, elem_bytes, dest_local);
    transport.charge_unpack(work, unpack_loop(ks.size()));
  };
  const ExchangeTimes times = schedule ? exchange_scheduled(transport, plan, buffers, unpack_arrived, schedule, ranks, procedure)
                                      : exchange_async(transport, plan, buffers, unpack_arrived);
  report.phases.comm = times.comm;
  report.phases.unpack = times.unpack;
  report.messages_sent = times.messages_sent;
  report.bytes_sent = times.bytes_sent;
}

}  // namespace redist
