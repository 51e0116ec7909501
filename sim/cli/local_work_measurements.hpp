// Micro-measurements of local work on the machine at hand, for `redist calibrate`: memory copy
// bandwidth, the start-up of a short run, and the indexing methods' counted work against their
// wall time (prices fitted by least squares).
#pragma once

#include <array>
#include <vector>

#include "redist/transport/work.hpp"

namespace redist::cli {

struct IndexMeasurement {
  std::vector<double> counts;  ///< IndexOp, TableEntry, Intersection, ElementScanned
  double seconds = 0;
};

struct LocalWork {
  double byte_copied = 0;  ///< seconds per byte of a large memcpy
  double run_copied = 0;   ///< seconds per short run, beyond its bytes
  std::vector<IndexMeasurement> index;  ///< one per (method, layout pair)
};

/// The work kinds the index fit prices, in IndexMeasurement::counts order.
inline constexpr std::array<WorkKind, 4> kIndexKinds = {WorkKind::IndexOp, WorkKind::TableEntry,
                                                        WorkKind::Intersection, WorkKind::ElementScanned};

LocalWork measure_local_work();

}  // namespace redist::cli
