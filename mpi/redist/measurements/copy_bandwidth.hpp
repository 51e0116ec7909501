// The node's memory as `redist calibrate` models it (redist/transport/node_memory.hpp): how fast one
// rank copies while k ranks of the node copy at once, for k = 1, 2, 4, ... and every rank, over
// working sets from inside the first cache to well beyond the last, with the data warm (copied just
// before) and cold (caches emptied first).
#pragma once

#include <nlohmann/json.hpp>

namespace redist::measurements {

/// Collective over MPI_COMM_WORLD. On rank 0: [{"ranks": k, "bytes": W, "warm": B/s, "cold": B/s}, ...],
/// each bandwidth one copying rank's, the mean over the k that copied (the others wait); elsewhere
/// an empty array.
nlohmann::ordered_json measure_copy_bandwidth();

}  // namespace redist::measurements
