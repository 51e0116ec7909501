// `redist-mpi localwork --json`: the local work of a redistribution timed in this program — the one
// `redist validate` runs and `auto` predicts — for `redist calibrate` to fit its prices. Making a
// plan allocates its run lists through this program's allocator, and each pack or unpack starts
// with caches holding none of its data, as in a redistribution of arrays larger than the caches.
#pragma once

namespace redist::measurements {

struct LocalWorkOptions {
  bool json = false;
};

/// Every rank measures the same work at the same time (one rank per core: the node's memory is then
/// shared as in a redistribution, where all ranks plan, pack and unpack at once). Rank 0 prints
/// {"index": [{"work": {property: count}, "seconds": s}, ...], "copies": [{"work": {...}, "seconds": s},
/// ...]}: one index row per (method, layout pair) and per relabelling, two copy rows (pack, unpack)
/// per (method, layout pair). Work is keyed by the price property of its kind (cost.index_op, ...),
/// the seconds are the mean over the ranks; then "copy_bandwidth": measure_copy_bandwidth()'s rows.
int run_local_work(const LocalWorkOptions& options);

}  // namespace redist::measurements
