// Moving the data of an indexed rank plan: pack every message, exchange them (asynchronously or
// along a schedule), unpack what arrives. Shared by redistribute() and redistribute_symmetric().
#pragma once

#include <functional>
#include <memory>
#include <span>

#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

/// Called after a received message is unpacked; does what else the method does then and returns
/// its modelled work (SRA rebuilds the twins of the local part).
using AfterUnpack = std::function<Work(const PeerPlan&)>;

/// Packs, exchanges and unpacks `plan` (`schedule` null: the asynchronous exchange; `procedure`
/// says how a scheduled exchange runs its steps). Fills the pack, comm and unpack phases and the message
/// counts of `report`; on a phantom transport only the modelled work is charged, as `accounting`
/// counts it.
void exchange_plan(Transport& transport, const RankPlan& plan, Index elem_bytes, std::span<const std::byte> source_local,
                   std::span<std::byte> dest_local, const std::shared_ptr<const Schedule>& schedule,
                   const RankMap& ranks, RedistributeReport& report, const AfterUnpack& after_unpack = {},
                   StepProcedure procedure = StepProcedure::Redist,
                   const WorkAccounting& accounting = redist_work_accounting());

}  // namespace redist
