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

// Flags the vertices of maximum degree on each side (stepwise), or none (greedy).
void flag_cover(const std::vector<BipartiteEdge>& pending, bool max_degree, std::vector<bool>& left,
                std::vector<bool>& right) {
  std::fill(left.begin(), left.end(), false);
  std::fill(right.begin(), right.end(), false);
  if (!max_degree) return;
  std::vector<Index> out(left.size(), 0), in(right.size(), 0);
  for (const auto& e : pending) {
    ++out[static_cast<std::size_t>(e.left)];
    ++in[static_cast<std::size_t>(e.right)];
  }
  const Index top = std::max(*std::max_element(out.begin(), out.end()), *std::max_element(in.begin(), in.end()));
  for (std::size_t p = 0; p < out.size(); ++p) left[p] = out[p] == top;
  for (std::size_t q = 0; q < in.size(); ++q) right[q] = in[q] == top;
}

Schedule schedule_by_matchings(const LengthMatrix& lengths, bool cover_max_degree) {
  Schedule schedule{lengths.P(), lengths.Q(), {}};
  std::vector<BipartiteEdge> pending = messages_of(lengths);
  MaxWeightMatcher matcher(lengths.P(), lengths.Q(), lengths.max_length());
  std::vector<bool> cover_left(static_cast<std::size_t>(lengths.P())), cover_right(static_cast<std::size_t>(lengths.Q()));
  std::vector<bool> taken;
  while (!pending.empty()) {
    flag_cover(pending, cover_max_degree, cover_left, cover_right);
    ScheduleStep step;
    taken.assign(pending.size(), false);
    for (std::size_t k : matcher.match(pending, cover_left, cover_right)) {
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
