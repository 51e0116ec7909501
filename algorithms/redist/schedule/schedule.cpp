#include "redist/schedule/schedule.hpp"

#include <algorithm>

namespace redist {

Index ScheduleStep::cost() const {
  Index longest = 0;
  for (const auto& message : messages) longest = std::max(longest, message.length);
  return longest;
}

Index Schedule::total_cost() const {
  Index total = 0;
  for (const auto& step : steps) total += step.cost();
  return total;
}

Index Schedule::message_count() const {
  Index count = 0;
  for (const auto& step : steps) count += static_cast<Index>(step.messages.size());
  return count;
}

}  // namespace redist
