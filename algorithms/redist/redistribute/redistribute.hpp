// The public entry point: describe two layouts, call redistribute() on every rank.
//
//   redist::Layout from = redist::BlockCyclic(n, 10, 50);
//   redist::Layout to   = redist::BlockCyclic(n, 2, 40);
//   auto report = redist::redistribute(transport, from, to, my_source_bytes, my_dest_bytes,
//                                      {.elem_bytes = 4, .indexing = "krr", .schedule = "caterpillar"});
//
// The call is collective over all ranks of the transport. Indexing (who sends what) is computed
// by the chosen method, kept apart from the exchange, which follows the chosen schedule.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_map.hpp"
#include "redist/transport/machine_model.hpp"
#include "redist/transport/phases.hpp"
#include "redist/transport/transport.hpp"

namespace redist {

/// How a scheduled exchange runs its steps. `Redist`, redist's own way: each step's message is
/// unpacked as it arrives, and pairs without data sit the step out. `Paper004`, the program paper
/// 004 timed (§5.1: pack, barrier, timer, steps, timer, unpack): the steps only move data, every
/// buffer is unpacked after the timer, and its caterpillar is ScaLAPACK's, which makes "no attempt
/// [...] to exploit the fact that some processor pairs may not need to communicate" (§3.2): in each
/// step that carries data, the caterpillar's pairs without data exchange empty messages (a step
/// with no data at all costs nothing, as table 19's theoretical ratio 4/6 assumes). The
/// asynchronous exchange is the same under both.
enum class StepProcedure { Redist, Paper004 };

/// The name that lets redist choose the indexing method or the schedule.
inline constexpr const char* kDefaultName = "default";
/// The name that leaves a choice (indexing, schedule, relabel) to the prediction on a machine
/// model (redist/predict/auto_choice.hpp; redist::mpi's Plan and choose() resolve it).
inline constexpr const char* kAutoName = "auto";

struct RedistributeOptions {
  Index elem_bytes = 8;                ///< bytes per array element
  std::string indexing = kDefaultName; ///< naive, krr, pitfalls, prylli (redist/indexing/indexing_methods.hpp) or default
  std::string schedule = kDefaultName; ///< async, caterpillar, walker-otto, stepwise, greedy or default
  RankMap ranks = RankMap::shared();   ///< where source and destination processors sit among the ranks
  StepProcedure step_procedure = StepProcedure::Redist;  ///< scheduled exchanges only
  /// Whose local work is charged: "redist" (this library's code) or "paper" (the program a paper
  /// timed, for replays of its tables: work_accounting.hpp). The data moved is the same.
  std::string work = "redist";
  /// Which rank each destination processor runs on: none (as `ranks` says), exact, greedy
  /// (redistribute/relabelling.hpp: the ranks that keep most data local; `ranks` must be shared)
  /// or auto.
  std::string relabel = "none";
  /// The machine `auto` predicts on (indexing, schedule or relabel named "auto": the candidate
  /// predicted fastest runs, redist/predict/prediction.hpp). Every rank loads the same one, e.g.
  /// load_machine_model() of the file `redist calibrate` wrote for this machine.
  std::shared_ptr<const MachineModel> model = nullptr;
};

/// `options` with "default" replaced by redist's choice: prylli (it takes any block sizes) and
/// async, the fastest combination measured on MPI (mpi/README.md).
RedistributeOptions resolve_defaults(RedistributeOptions options);

/// True when the indexing, the schedule or the relabelling is left to the prediction ("auto").
bool has_auto_choice(const RedistributeOptions& options);

struct RedistributeReport {
  Phases phases;            ///< this rank's index, pack, comm, unpack and total
  Index messages_sent = 0;  ///< messages to other ranks
  Index bytes_sent = 0;     ///< bytes to other ranks
  Index bytes_kept = 0;     ///< bytes that stay on this rank (its message to itself)
  /// Of the bytes this rank received from other ranks, those it copied once, straight out of the
  /// sender's storage (MPI, ranks on one node, sources in one redist::mpi::SharedArray, pieces
  /// long enough): no pack, no message, no unpack. The rest were packed and unpacked, or moved by MPI.
  Index bytes_copied_once = 0;
};

/// Moves this rank's part of the array from `source` to `dest` layout. `source_local` holds this
/// rank's source elements (source.local_size(p) × elem_bytes bytes; empty if the rank is no
/// source), `dest_local` receives its destination elements. On a phantom transport both spans may
/// be empty. Throws std::invalid_argument for mismatched layouts, too few ranks, buffers of the
/// wrong size (checked before planning), null buffers where the rank holds elements, source and
/// destination in overlapping storage (it does not work in place) or unknown method names.
RedistributeReport redistribute(Transport& transport, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const RedistributeOptions& options);

}  // namespace redist
