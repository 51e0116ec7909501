// The asynchronous exchange (Wang et al.'s template, paper 004 §3.2): post every receive, barrier,
// send everything at once, unpack each message as it arrives (those that arrive together at once) —
// or, when the plan asks for UnpackOrder::SourceRank, in increasing source rank (plan order). No
// steps, maximal buffering.
#pragma once

#include "redist/indexing/rank_plan.hpp"
#include "redist/redistribute/exchange_buffers.hpp"

namespace redist {

ExchangeTimes exchange_async(Transport& transport, const RankPlan& plan, ExchangeBuffers& buffers,
                             const UnpackMessages& unpack_messages);

}  // namespace redist
