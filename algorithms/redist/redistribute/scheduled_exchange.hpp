// The synchronous scheduled exchange (Walker and Otto's template, paper 004 §3.2 and §5.1): the
// messages travel in the steps of a Schedule. At each step a rank posts its receive (at most one),
// sends its message (at most one), waits for both and unpacks what arrived, so each rank buffers
// one message at a time and no receiver is a hot spot. Ranks synchronise only pairwise, through the
// messages: a rank with nothing to do in a step moves on. The same code runs in the simulator and
// on MPI; the schedule is computed identically on every rank (layout_schedule.hpp). With
// StepProcedure::Paper004 the steps only move data and every buffer is unpacked after the timed
// part, as paper 004's program does (§5.1); a scheduled message of length 0 is an empty message
// both ends still exchange (its caterpillar's idle pairs, caterpillar.hpp).
#pragma once

#include <memory>

#include "redist/redistribute/exchange_buffers.hpp"
#include "redist/indexing/rank_map.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

/// Exchanges the plan's messages in the steps of `schedule`, whose processors are the layouts'
/// source (src) and destination (dst) processors placed on ranks by `ranks`. A scheduled pair
/// that sits on one rank is the local copy, done first; a scheduled pair without data in the plan
/// (an array shorter than the grid's slice) is skipped by both sides. Throws std::logic_error when
/// the schedule misses a message of the plan.
ExchangeTimes exchange_scheduled(Transport& transport, const RankPlan& plan, ExchangeBuffers& buffers,
                                 const UnpackMessages& unpack_messages, const std::shared_ptr<const Schedule>& schedule,
                                 const RankMap& ranks, StepProcedure procedure = StepProcedure::Redist);

}  // namespace redist
