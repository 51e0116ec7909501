#include "redist/schedule/check_schedule.hpp"

#include <vector>

namespace redist {
namespace {

std::string pair_name(const ScheduledMessage& m) {
  return "(" + std::to_string(m.src) + ", " + std::to_string(m.dst) + ")";
}

// Checks one step; marks its messages in `seen` (row-major P×Q).
std::optional<std::string> step_violation(const ScheduleStep& step, std::size_t k, const LengthMatrix& lengths,
                                          std::vector<bool>& seen) {
  const std::string where = "step " + std::to_string(k) + ": ";
  std::vector<bool> sends(static_cast<std::size_t>(lengths.P())), receives(static_cast<std::size_t>(lengths.Q()));
  for (const auto& m : step.messages) {
    if (m.src < 0 || m.src >= lengths.P() || m.dst < 0 || m.dst >= lengths.Q()) {
      return where + "message " + pair_name(m) + " names a processor outside the grid";
    }
    if (sends[static_cast<std::size_t>(m.src)]) return where + "source " + std::to_string(m.src) + " sends twice";
    if (receives[static_cast<std::size_t>(m.dst)]) {
      return where + "destination " + std::to_string(m.dst) + " receives twice";
    }
    sends[static_cast<std::size_t>(m.src)] = receives[static_cast<std::size_t>(m.dst)] = true;
    if (lengths.at(m.src, m.dst) == 0) return where + "message " + pair_name(m) + " is not in the grid";
    if (m.length != lengths.at(m.src, m.dst)) {
      return where + "message " + pair_name(m) + " has length " + std::to_string(m.length) + ", the grid says " +
             std::to_string(lengths.at(m.src, m.dst));
    }
    const auto cell = static_cast<std::size_t>(m.src * lengths.Q() + m.dst);
    if (seen[cell]) return where + "message " + pair_name(m) + " was already scheduled";
    seen[cell] = true;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> schedule_violation(const Schedule& schedule, const LengthMatrix& lengths) {
  if (schedule.P != lengths.P() || schedule.Q != lengths.Q()) {
    return "the schedule is not for a " + std::to_string(lengths.P()) + "x" + std::to_string(lengths.Q()) + " grid";
  }
  std::vector<bool> seen(static_cast<std::size_t>(lengths.P() * lengths.Q()));
  for (std::size_t k = 0; k < schedule.steps.size(); ++k) {
    if (auto violation = step_violation(schedule.steps[k], k, lengths, seen)) return violation;
  }
  for (Index p = 0; p < lengths.P(); ++p) {
    for (Index q = 0; q < lengths.Q(); ++q) {
      if (lengths.at(p, q) != 0 && !seen[static_cast<std::size_t>(p * lengths.Q() + q)]) {
        return "message " + pair_name({p, q, 0}) + " is never scheduled";
      }
    }
  }
  return std::nullopt;
}

}  // namespace redist
