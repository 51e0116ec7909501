// Micro-measurements of local work on the machine at hand, for `redist calibrate`: memory copy
// bandwidth, the start-up of a short run, and the indexing methods' counted work against their
// wall time (prices fitted by least squares).
#pragma once

#include <array>
#include <vector>

#include "redist/transport/work.hpp"

namespace redist::cli {

struct IndexMeasurement {
  std::vector<double> counts;  ///< in kIndexKinds order
  double seconds = 0;
};

/// One pack (all messages at once) or unpack (message by message) of a real plan.
struct CopyMeasurement {
  double bytes = 0, runs = 0;  ///< ByteCopied and RunCopied, as copy_work counts them
  double seconds = 0;
};

struct LocalWork {
  double byte_copied = 0;  ///< seconds per byte of a large memcpy
  double run_copied = 0;   ///< seconds per run piece beyond its bytes, fitted over `copies`
  std::vector<IndexMeasurement> index;  ///< one per (method, layout pair)
  std::vector<CopyMeasurement> copies;  ///< two per (method, layout pair): pack, unpack
};

/// The work kinds the index fit prices, in IndexMeasurement::counts order.
inline constexpr std::array<WorkKind, 5> kIndexKinds = {WorkKind::IndexOp, WorkKind::TableEntry,
                                                        WorkKind::Intersection, WorkKind::ElementScanned,
                                                        WorkKind::RunListed};

LocalWork measure_local_work();

}  // namespace redist::cli
