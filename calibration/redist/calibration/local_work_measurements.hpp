// Local work measured on the machine at hand, for `redist calibrate`: `redist-mpi localwork` times
// the indexing methods' plans and the packing and unpacking of them in the MPI program itself (its
// allocator, caches holding none of the data), and the prices are fitted here by least squares.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/transport/node_memory.hpp"
#include "redist/transport/work.hpp"

namespace redist::calibration {

struct IndexMeasurement {
  std::vector<double> counts;  ///< in kIndexKinds order
  double seconds = 0;
  bool left_out = false;  ///< of the price fit: its time is not its counted work's (fit_prices_staged_trimmed)
};

/// One pack (all messages at once) or unpack (message by message, or all in one sweep) of a real plan.
struct CopyMeasurement {
  double bytes = 0, runs = 0, records = 0;  ///< ByteCopied, RunCopied and RecordCopied, as copy_work counts them
  double seconds = 0;
  /// Which loop the row timed: a pack (local storage into message buffers), an unpack (back out,
  /// message by message) or a sweep (back out, every message in one sweep); none in measurements
  /// taken before rows said so.
  std::optional<CopyLoop> loop{};
  bool left_out = false;  ///< of the loop factors' fit: its time is not its counted work's
  /// Bytes its repeated copies touched on each rank (storage and buffers; every rank copied at once,
  /// so that the node's are `ranks` times as many: NodeMemory::copy_seconds); 0 in measurements
  /// that emptied the caches before each copy, which name none.
  double touched = 0;
  /// What the node's calls touched: `ranks` ranks copying at once, each `touched`.
  double touched_on_node(Index ranks) const { return touched * static_cast<double>(ranks); }
};

/// One rank's copy bandwidth with `ranks` ranks copying `bytes` each at once, warm and cold.
struct CopyBandwidthRow {
  Index ranks = 1;
  double bytes = 0;
  double warm = 0, cold = 0;  ///< bytes per second
};

struct LocalWork {
  /// The node's memory modelled on the cold copies (caches emptied first), as the pack and unpack
  /// rows below are measured: a redistribution reads and writes arrays its ranks last touched
  /// before the call. Its loop factors, and the runs and records, fitted on those rows. None when
  /// no copies were measured.
  std::optional<NodeMemory> memory;
  std::vector<CopyBandwidthRow> copy_bandwidth;
  /// `memory` models the warm copies (the rows of `copies` say what they touched: timed as repeated
  /// calls run them), else the cold ones (timed with the caches emptied first).
  bool warm_copies = false;
  /// Ranks that packed and unpacked at once in `copies` (those of the largest copy bandwidth row).
  Index ranks = 1;
  double byte_copied = 0;  ///< seconds per byte copied, fitted over `copies`
  /// Seconds per run piece beyond its bytes, and per run-list record beyond its pieces, fitted over
  /// `copies`: with a memory model, over what its copies of the bytes leave of each row's seconds.
  double run_copied = 0;
  double record_copied = 0;
  /// Seconds per element copied one at a time beyond its bytes, runs and records (cost.element_copied),
  /// fitted over `pdgemr2d`: what ScaLAPACK's own pdgemr2d, copying on one process, takes beyond
  /// what its bytes (at the memory's bandwidth, or byte_copied), runs and records cost. 0 when the
  /// measurements hold no pdgemr2d rows (measured before they were taken).
  double element_copied = 0;
  /// Seconds per byte written for the first time since the process was given it (cost.byte_faulted):
  /// a block mapped, written and unmapped against one written again, every rank at once. 0 when
  /// the measurements hold none (taken before first touches were measured).
  double byte_faulted = 0;
  struct FirstTouchMeasurement {
    double bytes = 0, fresh = 0, warm = 0;  ///< the block, and the seconds of each write
  };
  std::optional<FirstTouchMeasurement> first_touch;
  std::vector<IndexMeasurement> index;  ///< one per (method, layout pair) and per relabelling
  std::vector<CopyMeasurement> copies;  ///< two per (method, layout pair): pack, unpack
  /// pdgemr2d's copies on one process, with the elements its model (redist/pdgemr2d/) counts.
  struct ElementCopyMeasurement {
    double elements = 0, bytes = 0, runs = 0, records = 0;
    double seconds = 0;
    double touched = 0;  ///< A, B and the buffers (0 where the caches were emptied first)
    double touched_on_node(Index ranks) const { return touched * static_cast<double>(ranks); }
  };
  std::vector<ElementCopyMeasurement> pdgemr2d;
};

/// The work kinds the index fit prices, in IndexMeasurement::counts order.
inline constexpr std::array<WorkKind, 5> kIndexKinds = {WorkKind::IndexOp, WorkKind::TableEntry,
                                                        WorkKind::Intersection, WorkKind::ElementScanned,
                                                        WorkKind::RunListed};

/// Several passes of `redist-mpi localwork --json` as one: each row (the same work in every pass)
/// at its fastest pass, each copy bandwidth at its highest. Throws std::runtime_error when the passes' rows differ.
nlohmann::json fastest_rows(const std::vector<nlohmann::json>& passes);

/// The measurements `redist-mpi localwork --json` printed, the copy prices fitted (non-negative
/// least squares on relative residuals). Throws nlohmann::json::exception when `json` is not such.
LocalWork local_work_from_json(const nlohmann::json& json);

}  // namespace redist::calibration
