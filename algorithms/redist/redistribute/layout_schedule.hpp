// The schedule a scheduled exchange follows, derived by every rank from the layouts alone: each
// rank knows only its own messages, but the layouts give everyone the whole P×Q matrix of message
// lengths, and the strategies are deterministic, so all ranks agree without communicating.
#pragma once

#include <memory>

#include "redist/layout/layout.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/indexing/rank_map.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

/// The schedule of `choice` between the layouts' processors; null for the unscheduled async exchange.
/// Pairs of processors that sit on the same rank are local copies and are left out before
/// scheduling. Walker-otto needs two 1-D block-cyclic layouts CYCLIC(r) -> CYCLIC(K·r) on the same
/// P processors (std::invalid_argument otherwise). The last few schedules are memoised, since in
/// the simulator every rank of a run asks for the same one in the same process. Under
/// StepProcedure::Paper004 the caterpillar has its empty messages (IdlePairs::ExchangeEmpty).
std::shared_ptr<const Schedule> layout_schedule(ScheduleChoice choice, const Layout& source, const Layout& dest,
                                                const RankMap& ranks, StepProcedure procedure = StepProcedure::Redist);

/// How many schedules this process has asked layout_schedule for (a choice other than async,
/// memoised or not, refused or not) since it started. For tests that check each call builds each
/// schedule once.
Index layout_schedules_asked();

}  // namespace redist
