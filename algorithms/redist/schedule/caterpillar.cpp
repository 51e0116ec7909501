#include "redist/schedule/caterpillar.hpp"

#include <algorithm>

namespace redist {

Schedule caterpillar_schedule(const LengthMatrix& lengths, IdlePairs idle) {
  const Index P = lengths.P(), Q = lengths.Q();
  const Index ring = std::max(P, Q);
  Schedule schedule{P, Q, std::vector<ScheduleStep>(static_cast<std::size_t>(ring))};
  for (Index k = 0; k < ring; ++k) {
    auto& messages = schedule.steps[static_cast<std::size_t>(k)].messages;
    for (Index p = 0; p < P; ++p) {
      const Index q = floor_mod(p - k, ring);
      if (q < Q && lengths.at(p, q) != 0) messages.push_back({p, q, lengths.at(p, q)});
    }
    if (idle == IdlePairs::Skip || messages.empty()) continue;
    messages.clear();
    for (Index p = 0; p < P; ++p) {
      const Index q = floor_mod(p - k, ring);
      if (q < Q) messages.push_back({p, q, lengths.at(p, q)});
    }
  }
  return schedule;
}

}  // namespace redist
