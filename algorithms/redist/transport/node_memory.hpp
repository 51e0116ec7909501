// A node's memory as a resource its ranks share (docs/ARCHITECTURE.md §4). A rank's copy (pack,
// unpack, a local part) runs through its core, at most c(W) bytes per second, and through the node's
// memory, M(W) bytes per second shared by every rank copying at that moment. Both depend on W, the
// bytes a rank keeps copying (the copy's, or half of what its node's calls touch where that is
// more): what stays in the caches from one call to the next copies faster than what streams from
// memory.
// With k ranks copying alike, each copies at min(c(W), M(W) / k); the simulator shares M(W) among
// copies that overlap in time as SimGrid shares a resource (max-min fairness, each flow bounded by
// c(W)), and `auto`'s prediction takes every rank of a node to copy at once.
#pragma once

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "redist/core/int_math.hpp"
#include "redist/core/piecewise_curve.hpp"
#include "redist/transport/copy_loop.hpp"
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

struct NodeMemory {
  PiecewiseCurve copy_bandwidth;  ///< c(W): one rank copying alone
  PiecewiseCurve node_bandwidth;  ///< M(W): all the node's ranks copying at once, together
  /// A loop's memory time over the plain copies' for the same bytes (kPackFactorProperty,
  /// kUnpackFactorProperty; 1 where undeclared; kSweepFactorProperty, the unpack's where undeclared).
  double pack_factor = 1;
  double unpack_factor = 1;
  std::optional<double> sweep_factor{};

  double loop_factor(CopyLoop loop) const {
    switch (loop) {
      case CopyLoop::Pack: return pack_factor;
      case CopyLoop::Unpack: return unpack_factor;
      case CopyLoop::UnpackSweep: return sweep_factor.value_or(unpack_factor);
    }
    return pack_factor;
  }

  /// c(W) and M(W), read between the measured points (PiecewiseCurve::between_points): what stays in
  /// the caches falls off gradually as W grows past them, not at the next measured size.
  double alone(double bytes) const { return copy_bandwidth.between_points(bytes); }
  double together(double bytes) const { return node_bandwidth.between_points(bytes); }
  /// Each rank's bandwidth with `copying` ranks copying `bytes` at once: min(c(W), M(W) / copying).
  double rank_bandwidth(double bytes, Index copying) const;
  /// Seconds to copy `bytes` with `copying` ranks copying alike, by `loop`, where the calls of the
  /// node's ranks touch `touched` bytes (their arrays and message buffers; 0: the copy's own): the
  /// curves are read at W = max(bytes, touched / 2). The curves are measured on repeated copies of W
  /// bytes, which touch 2W (source and destination), as repeated calls find what they touched last
  /// time in the caches when it fits there: a small copy of a large call streams from memory.
  double copy_seconds(double bytes, Index copying, CopyLoop loop = CopyLoop::Pack, double touched = 0) const;
  /// The W at which the curves price a copy of `bytes` where the node's calls touch `touched` bytes.
  static double resident_bytes(double bytes, double touched) { return std::max(bytes, touched / 2); }

  /// The model of measured copies: c(W) the one-rank bandwidth, M(W) the most any number of ranks
  /// copied together (k × their bandwidth), at each measured W; below the smallest W, its values;
  /// both loop factors 1.
  /// Throws std::invalid_argument when there is no one-rank measurement at some W, or a value is not
  /// positive.
  static NodeMemory from_measurements(const std::vector<CopyBandwidthMeasurement>& measurements);

  friend bool operator==(const NodeMemory&, const NodeMemory&) = default;
};

}  // namespace redist
