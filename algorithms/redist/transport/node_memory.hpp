// A node's memory as a resource its ranks share (docs/ARCHITECTURE.md §4). A rank's copy (pack,
// unpack, a local part) runs through its core, at most c(W) bytes per second, and through the node's
// memory, M(W) bytes per second shared by every rank copying at that moment. Both depend on W, the
// bytes copied at once: what fits in a core's caches copies faster than what streams from memory.
// With k ranks copying alike, each copies at min(c(W), M(W) / k); the simulator shares M(W) among
// copies that overlap in time as SimGrid shares a resource (max-min fairness, each flow bounded by
// c(W)), and `auto`'s prediction takes every rank of a node to copy at once.
//
// Copies of data in the caches. A run that is repeated and timed at its fastest (validate, every
// benchmark) finds the arrays its ranks touched in the last repetition still cached when they fit.
// Where the host also declares kCachedCopyBandwidthProperty and kCacheBytesProperty, a rank whose
// node's working set (WorkingSet: what the redistribution of the ranks placed on that node touches)
// fits the node's last-level cache copies warm: each copy at the cached curve's bandwidth, by its
// own working set, through its core alone (its data does not come from the node's memory, whose
// M(W) it does not take). Everything else copies cold, as above.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "redist/core/int_math.hpp"
#include "redist/core/piecewise_curve.hpp"
#include "redist/transport/platform_properties.hpp"

namespace redist {

// Host properties kCopyBandwidthProperty and kNodeBandwidthProperty (platform_properties.hpp) hold the
// two curves, bytes per second by bytes copied at once, in PiecewiseCurve's syntax. A host that
// declares neither prices a byte copied at cost.byte_copied.

/// One rank's copy bandwidth measured with `ranks` ranks of a node copying `bytes` each at once.
struct CopyBandwidthMeasurement {
  Index ranks = 1;
  double bytes = 0;
  double bandwidth = 0;  ///< bytes per second, each rank's
};

/// What a run's redistribution touches, where the run states it: the bytes of a rank's source part
/// and its destination part (local_size x element bytes each), and their sum over the ranks placed
/// on its node. The buffers messages are packed into and received in are not counted: they are the
/// same size as the parts they copy and are reused by every repetition, but where they lie is the
/// MPI library's and the exchange's, which the model does not follow.
struct WorkingSet {
  Index rank = 0;  ///< bytes of the rank's own source and destination parts
  Index node = 0;  ///< the same summed over the ranks of its node (itself included)
  friend bool operator==(const WorkingSet&, const WorkingSet&) = default;
};

/// Copies of data a rank touched just before (kCachedCopyBandwidthProperty, kCacheBytesProperty).
struct CachedCopies {
  /// One rank copying W bytes whose source and destination it touched just before, bytes per second
  /// by W (the warm rows of `redist-mpi localwork`'s copy bandwidth, one rank).
  PiecewiseCurve bandwidth{};
  /// The node's last-level cache, which its ranks share, in bytes.
  Index cache_bytes = 0;
  friend bool operator==(const CachedCopies&, const CachedCopies&) = default;
};

struct NodeMemory {
  PiecewiseCurve copy_bandwidth;  ///< c(W): one rank copying alone
  PiecewiseCurve node_bandwidth;  ///< M(W): all the node's ranks copying at once, together
  /// Copies of cached data, where declared (none: every copy as above, cold).
  std::optional<CachedCopies> cached{};

  /// Each rank's bandwidth with `copying` ranks copying `bytes` at once: min(c(W), M(W) / copying).
  double rank_bandwidth(double bytes, Index copying) const;
  /// Seconds to copy `bytes` with `copying` ranks copying alike.
  double copy_seconds(double bytes, Index copying) const;
  /// The rule of warm copies, the one the simulator and the prediction both follow: where cached
  /// copies are declared and the node's working set is at most cache_bytes, each copy of the rank
  /// runs at cached.bandwidth(w) bytes per second, w = set.rank / 2 (the curve's W-byte copies touch
  /// 2W bytes, source and destination), whatever the other ranks copy; between two measured W, linear
  /// in log W. Empty otherwise: cold.
  std::optional<double> warm_bandwidth(const WorkingSet& set) const;
  /// Seconds to copy `bytes` with `copying` ranks copying alike, warm where warm_bandwidth(*set)
  /// says so (no working set stated: cold).
  double copy_seconds(double bytes, Index copying, const std::optional<WorkingSet>& set) const;

  /// The model of measured copies: c(W) the one-rank bandwidth, M(W) the most any number of ranks
  /// copied together (k × their bandwidth), at each measured W; below the smallest W, its values.
  /// Throws std::invalid_argument when there is no one-rank measurement at some W, or a value is not
  /// positive.
  static NodeMemory from_measurements(const std::vector<CopyBandwidthMeasurement>& measurements);

  friend bool operator==(const NodeMemory&, const NodeMemory&) = default;
};

}  // namespace redist
