#include "redist/schedule/walker_otto.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace redist {
namespace {

void require_walker_otto(const Redistribution& redist) {
  redist.validate();
  const auto describe = [&] {
    return " (got P = " + std::to_string(redist.P) + ", r = " + std::to_string(redist.r) +
           ", Q = " + std::to_string(redist.Q) + ", s = " + std::to_string(redist.s) + ")";
  };
  if (redist.P != redist.Q) {
    throw std::invalid_argument("walker-otto needs as many destination as source processors, P = Q" + describe());
  }
  const Index small = std::min(redist.r, redist.s), large = std::max(redist.r, redist.s);
  if (large % small != 0) {
    throw std::invalid_argument("walker-otto needs one block size to be a multiple of the other, s = K*r" +
                                describe());
  }
  if (large / small > redist.P) {
    throw std::invalid_argument("walker-otto needs K = " + std::to_string(large / small) +
                                " <= P: with more slots than processors the exchange is all-to-all" + describe());
  }
}

}  // namespace

Schedule walker_otto_schedule(const Redistribution& redist) {
  require_walker_otto(redist);
  const Index P = redist.P;
  const bool increasing = redist.s >= redist.r;  // r -> K·r; otherwise swap senders and receivers
  const Index length = std::min(redist.r, redist.s);
  const Index K = std::max(redist.r, redist.s) / length;
  const Index d = std::gcd(K, P);

  Schedule schedule{P, P, std::vector<ScheduleStep>(static_cast<std::size_t>(K))};
  for (Index k = 0; k < K; ++k) {
    auto& messages = schedule.steps[static_cast<std::size_t>(k)].messages;
    messages.resize(static_cast<std::size_t>(P));
    for (Index q = 0; q < P; ++q) {
      const Index slot = (k + q * d / P) % K;
      const Index p = (q * K + slot) % P;
      // Indexed by sender so that each step lists its messages in source order.
      if (increasing) {
        messages[static_cast<std::size_t>(p)] = {p, q, length};
      } else {
        messages[static_cast<std::size_t>(q)] = {q, p, length};
      }
    }
  }
  return schedule;
}

}  // namespace redist
