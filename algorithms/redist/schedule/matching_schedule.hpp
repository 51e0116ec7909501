// The two schedules of paper 004 §4.5 built from one maximum-weight matching per step, the weight
// of a message being its length.
//
// - stepwise: each step is a matching that covers every processor of maximum degree (number of
//   messages still to send or receive), of maximum weight among those. The maximum degree drops by
//   one per step, so NS is the maximum degree of the communication graph, the optimum (König's
//   edge-colouring theorem, Theorem 1).
// - greedy: each step is a maximum-weight matching of what is left; among matchings of that weight,
//   one that keeps the most processors of maximum degree busy (the paper leaves ties open: an LP
//   vertex). It may need more steps than stepwise but often has a lower total cost (tables 17 and 18).
#pragma once

#include "redist/schedule/length_matrix.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

Schedule stepwise_schedule(const LengthMatrix& lengths);
Schedule greedy_schedule(const LengthMatrix& lengths);

}  // namespace redist
