// A communication schedule (paper 004, Definition 4): a sequence of steps, each a set of messages in
// which every source processor sends at most one message and every destination processor receives
// at most one. NS is the number of steps (synchronisations), TC the sum over steps of the longest
// message of the step (a step lasts as long as its longest message).
#pragma once

#include <vector>

#include "redist/core/int_math.hpp"

namespace redist {

/// Source processor `src` (of P) sends `length` elements per slice to destination processor `dst` (of Q).
struct ScheduledMessage {
  Index src = 0;
  Index dst = 0;
  Index length = 0;  ///< 0: an empty message (IdlePairs::ExchangeEmpty, caterpillar.hpp)
  friend bool operator==(const ScheduledMessage&, const ScheduledMessage&) = default;
};

struct ScheduleStep {
  std::vector<ScheduledMessage> messages;  ///< in increasing source order
  /// The longest message of the step; 0 for an empty step.
  Index cost() const;
};

struct Schedule {
  Index P = 0;  ///< source processors
  Index Q = 0;  ///< destination processors
  /// Empty steps are kept: a synchronous schedule (caterpillar) still spends a step on them.
  std::vector<ScheduleStep> steps;

  /// NS: the number of steps.
  Index step_count() const { return static_cast<Index>(steps.size()); }
  /// TC: the sum of the step costs.
  Index total_cost() const;
  /// Number of messages over all steps.
  Index message_count() const;
};

}  // namespace redist
