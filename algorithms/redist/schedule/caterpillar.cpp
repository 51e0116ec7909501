#include "redist/schedule/caterpillar.hpp"

#include <algorithm>

namespace redist {

Schedule caterpillar_schedule(const LengthMatrix& lengths, IdlePairs idle) {
  const Index P = lengths.P(), Q = lengths.Q();
  const Index ring = std::max(P, Q);
  Schedule schedule{P, Q, std::vector<ScheduleStep>(static_cast<std::size_t>(ring))};
  for (Index k = 0; k < ring; ++k) {
    auto& messages = schedule.steps[static_cast<std::size_t>(k)].messages;
    bool carries_data = false;
    for (Index p = 0; p < P; ++p) {
      const Index q = floor_mod(p - k, ring);
      if (q < Q) messages.push_back({p, q, lengths.at(p, q)});
      carries_data = carries_data || (q < Q && lengths.at(p, q) != 0);
    }
    // Idle pairs stay only as the empty messages of a step with data.
    if (idle == IdlePairs::Skip || !carries_data) std::erase_if(messages, [](const auto& m) { return m.length == 0; });
  }
  return schedule;
}

}  // namespace redist
