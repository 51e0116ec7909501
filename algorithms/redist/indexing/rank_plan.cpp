#include "redist/indexing/rank_plan.hpp"

#include <algorithm>
#include <limits>

namespace redist {
namespace {

// A whole piece: folded into the last run if it continues that run's stride, else a new run.
void add_whole(RunList& runs, Index start, Index length) {
  if (!runs.empty()) {
    Run& last = runs.back();
    if (length == last.length && last.count == 1 && start > last.local_start + last.length) {
      last.count = 2;
      last.stride = start - last.local_start;
      return;
    }
    if (length == last.length && last.count > 1 && start == last.local_start + last.count * last.stride) {
      ++last.count;
      return;
    }
  }
  runs.push_back({start, length});
}

Index last_piece(const Run& r) { return r.local_start + (r.count - 1) * r.stride; }

// What append_piece reads of a record: where its last piece lies, its length and stride, and its
// count as far as 1, 2 or more differ. A record `long` pieces or more long (the last one, growing
// piece by piece) is never as long as a piece: then only where it ends counts.
bool alike(const Run& later, const Run& earlier, Index offset, Index longer_than_pieces) {
  if (later.stride != earlier.stride || std::min<Index>(later.count, 3) != std::min<Index>(earlier.count, 3)) {
    return false;
  }
  if (later.length >= longer_than_pieces && earlier.length >= longer_than_pieces) {
    return last_piece(later) + later.length == last_piece(earlier) + earlier.length + offset;
  }
  return later.length == earlier.length && last_piece(later) == last_piece(earlier) + offset;
}

}  // namespace

void append_piece(RunList& runs, Index local_start, Index length) {
  if (length <= 0) return;
  if (!runs.empty()) {
    Run& last = runs.back();
    const Index last_piece = last.local_start + (last.count - 1) * last.stride;
    if (local_start == last_piece + last.length) {
      // The last piece grows: take it off its run, as if it had never come, and add it grown.
      const Index grown = last.length + length;
      if (last.count == 1) {
        runs.pop_back();
      } else if (--last.count == 1) {
        last.stride = 0;
      }
      add_whole(runs, last_piece, grown);
      return;
    }
  }
  add_whole(runs, local_start, length);
}

void RecordCounter::add(Index local_start, Index length) {
  constexpr std::size_t kKept = 4;  // append_piece reaches two back at most
  append_piece(last_, local_start, length);
  if (last_.size() > kKept) {
    last_.erase(last_.begin());
    ++dropped_;
  }
}

bool RecordCounter::repeats(const RecordCounter& earlier, Index offset, Index longest_piece) const {
  const std::size_t n = std::min<std::size_t>(2, last_.size());
  if (earlier.last_.size() < n || (n < 2 && earlier.last_.size() != last_.size())) return false;
  // The last record may be one growing run; a piece joined to it is then compared with the one before
  // (append_piece), which must be shorter for the growing length not to matter.
  const Index longer_than_pieces = 2 * longest_piece + 1;
  const bool before_short = n < 2 || (last_[last_.size() - 2].length < longer_than_pieces &&
                                      earlier.last_[earlier.last_.size() - 2].length < longer_than_pieces);
  for (std::size_t k = 1; k <= n; ++k) {
    const Index cap = k == 1 && before_short ? longer_than_pieces : std::numeric_limits<Index>::max();
    if (!alike(last_[last_.size() - k], earlier.last_[earlier.last_.size() - k], offset, cap)) return false;
  }
  return true;
}

void RecordCounter::skip(Index records, Index offset) {
  dropped_ += records;
  for (Run& run : last_) run.local_start += offset;
}

std::vector<Index> local_offsets(const PeerPlan& plan) {
  std::vector<Index> out;
  for (const Run& run : plan.runs) {
    for (Index c = 0; c < run.count; ++c) {
      const Index start = run.local_start + c * run.stride;
      for (Index l = start; l < start + run.length; ++l) out.push_back(l);
    }
  }
  return out;
}

Work listing_work(const RankPlan& plan) {
  Index pieces = 0;
  for (const auto* side : {&plan.sends, &plan.receives}) {
    for (const PeerPlan& peer : *side) pieces += plan.listed_by_record ? peer.record_count : peer.run_count + peer.extra_copies;
  }
  return Work(WorkKind::RunListed, pieces);
}

Index piece_count(const RunList& runs) {
  Index total = 0;
  for (const Run& run : runs) total += run.count;
  return total;
}

std::optional<std::size_t> peer_index(const std::vector<PeerPlan>& peers, Rank rank) {
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer == rank) return k;
  }
  return std::nullopt;
}

Index elements_kept(const RankPlan& plan, Rank me) {
  const auto self = peer_index(plan.sends, me);
  return self ? plan.sends[*self].elements : 0;
}

}  // namespace redist
