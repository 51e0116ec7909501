// What one rank exchanges with each peer, as produced by an indexing method: per peer, the number
// of elements and the contiguous runs of local storage they occupy, in increasing global index
// order (the order both sides agree on for the message contents).
#pragma once

#include <optional>
#include <vector>

#include "redist/indexing/run_memory.hpp"
#include "redist/transport/run.hpp"
#include "redist/transport/transport.hpp"

namespace redist {

/// A list of runs; its large blocks are kept for the next plan (run_memory.hpp).
using RunList = std::vector<Run, RunAllocator<Run>>;

struct PeerPlan {
  Rank peer = 0;
  Index elements = 0;   ///< elements exchanged with the peer
  /// Number of contiguous pieces (known even when `runs` is not materialised): a strided run counts
  /// its `count` pieces, as its copy starts that many times.
  Index run_count = 0;
  RunList runs;  ///< the runs; empty in phantom runs when the method can count without them
  /// Pieces the method's own copy loop starts apart though they touch (copy_work counts them as runs
  /// copied); 0 for a plain run-by-run copy. One count, not a Work: a simulated all-to-all holds
  /// P·Q peer plans at once.
  Index extra_copies = 0;
  /// Records of `runs` (append_piece's, a strided run one record), known even when `runs` is not
  /// materialised: a copy reads each and starts its loop once.
  Index record_count = 0;
};

/// The order an asynchronous exchange unpacks received messages in: as they arrive (Krr, naive),
/// or waiting for each source rank in turn (PITFALLS, Prylli — paper 000, section 5).
enum class UnpackOrder { Arrival, SourceRank };

struct RankPlan {
  std::vector<PeerPlan> sends;     ///< one per destination rank with data, self included
  std::vector<PeerPlan> receives;  ///< one per source rank with data, self included
  UnpackOrder unpack_order = UnpackOrder::Arrival;  ///< the indexing method's (make_plan sets it)
  /// The method writes each record of its run lists whole (a strided record once, however many
  /// pieces it holds: the products of 1-D plans, tensor_plan.hpp), not piece by piece.
  bool listed_by_record = false;
};

/// Position of the peer plan for `rank` in `peers` (a rank has at most one), if any.
std::optional<std::size_t> peer_index(const std::vector<PeerPlan>& peers, Rank rank);

/// Elements of `plan` that stay on rank `me` (its message to itself).
Index elements_kept(const RankPlan& plan, Rank me);

/// Appends the next `length` elements of a message, at local offset `local_start`, to `runs`: merged
/// with the last piece when they touch, else folded into the last run when they repeat its length
/// one stride further on. A regular pattern is then one record however long (no index list to
/// write, a tight strided copy), and every producer that feeds the same pieces — element by element
/// or whole — gets the same runs.
void append_piece(RunList& runs, Index local_start, Index length);

/// The local offsets a plan's runs cover, piece by piece, in message order.
std::vector<Index> local_offsets(const PeerPlan& plan);

/// Contiguous pieces of a run list (a strided run counts its `count` pieces).
Index piece_count(const RunList& runs);

/// What writing a rank's run lists costs: one RunListed per piece the method appends (its runs and
/// the pieces it finds apart though they touch, extra_copies), or per record where it writes
/// records whole (listed_by_record), the same whether the lists are written or only counted, so
/// that phantom and real runs are timed alike.
Work listing_work(const RankPlan& plan);

/// The number of records append_piece makes of a sequence of pieces, without keeping them: it
/// reads and changes only a list's last two records, so the last few are kept.
class RecordCounter {
 public:
  void add(Index local_start, Index length);
  Index count() const { return dropped_ + static_cast<Index>(last_.size()); }
  /// Whether the next pieces (none longer than `longest_piece`), `offset` elements on, would make the
  /// same records here as after `earlier`'s: the two last records alike, `offset` apart.
  bool repeats(const RecordCounter& earlier, Index offset, Index longest_piece) const;
  /// As if pieces had made `records` more records and the last ones had come `offset` on.
  void skip(Index records, Index offset);

 private:
  RunList last_;
  Index dropped_ = 0;
};

/// Appends local offsets to a peer plan, merging consecutive offsets into runs (append_piece).
class RunBuilder {
 public:
  RunBuilder(PeerPlan& plan, bool materialise) : plan_(plan), materialise_(materialise) {}
  void add(Index local) { add_run(local, 1); }
  /// Appends `length` consecutive offsets from `local_start` (merged with the last run if they follow it).
  void add_run(Index local_start, Index length) {
    if (length <= 0) return;
    if (plan_.elements == 0 || local_start != last_ + 1) ++plan_.run_count;
    if (materialise_) {
      append_piece(plan_.runs, local_start, length);
      plan_.record_count = static_cast<Index>(plan_.runs.size());
    } else {
      records_.add(local_start, length);
      plan_.record_count = records_.count();
    }
    plan_.elements += length;
    last_ = local_start + length - 1;
  }

 private:
  PeerPlan& plan_;
  bool materialise_;
  Index last_ = 0;
  RecordCounter records_;  // when not materialising
};

}  // namespace redist
