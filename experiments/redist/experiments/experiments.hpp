// The experiment kinds a scenario can run, each a simulation with named parameters and phases.
// `redist simulate` and `redist replay` both go through them, so a table row and a command line
// with the same parameters give the same figures.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "redist/experiments/experiment_schema.hpp"
#include "redist/experiments/payload.hpp"
#include "redist/reports/simulation_report.hpp"
#include "redist/core/int_math.hpp"
#include "redist/indexing/matrix_copy.hpp"

namespace redist::sim {

/// What one simulated run reports.
struct ExperimentResult {
  Phases phases;  ///< seconds per phase, each the maximum over ranks (ExperimentSpec::phases name those reported)
  Index messages = 0;
  Index bytes = 0;
  std::optional<bool> verified;  ///< empty on phantom runs
  bool phantom = false;
  std::map<std::string, double> quantities;  ///< model quantities of the run (ExperimentSpec::quantities)
};

struct Experiment {
  ExperimentSpec spec;  ///< its parameters: what scenarios, the command line and run() accept
  /// Runs one simulation on `platform`. Throws on bad parameters or a failed run.
  std::function<ExperimentResult(const std::string& platform, const Params& params, Payload payload,
                                 const std::string& trace_file)>
      run;
  /// Refuses a run that would fail or could not finish (sizes, method limits, memory) without
  /// running it, as run() would; cheap, so that a scenario checks every run before the first
  /// (none: run() is the check).
  std::function<void(const Params& params, Payload payload)> check = {};
};

/// The ranks' reports of a redistribution, summarised; throws when real data arrived misplaced.
RunSummary verified_summary(const std::vector<std::string>& rank_reports);

/// Every experiment kind, in a stable order.
const std::vector<Experiment>& experiment_catalog();
std::vector<ExperimentSpec> experiment_specs();
/// Throws std::invalid_argument for an unknown name.
const Experiment& find_experiment(const std::string& name);

/// The 1-D redistribution CYCLIC(r)/P -> CYCLIC(s)/Q of N elements, or a 2-D copy between
/// ScaLAPACK descriptors (phases index, pack, comm, unpack, pack_unpack, total). Real payloads are
/// verified element by element; a failed verification throws.
Experiment redistribute_experiment();

/// The 2-D copy a redistribute run asks for (rows, cols, grids, blocks, ...), or nullopt for a 1-D
/// run. Throws std::invalid_argument where the run mixes the forms, lacks what its form needs, or
/// asks for a copy that cannot be.
std::optional<MatrixCopy> redistribute_matrix_copy(const ParameterValues& v);

/// The names of the redistribute experiment's 2-D form (rows, cols, src_grid, ..., sub; not method).
const std::vector<std::string>& redistribute_matrix_parameters();

/// The 2-D parameters of a redistribute run of `copy` (the inverse of redistribute_matrix_copy).
Params redistribute_matrix_params(const MatrixCopy& copy);

/// Paper 003's hole compression: generating one processor's compressed local array `iterations`
/// times by the table method or a virtual-processor baseline (phase generate).
Experiment holes_experiment();

/// Paper 002's symmetric matrix redistribution BC(x,*) -> BC(y,*) (or column-wise) by TR or SRA
/// (phases index, pack, comm, unpack, comp = index + pack + unpack, total). Real payloads verified.
Experiment sra_experiment();

/// Paper 001's PACK/UNPACK on a d-dimensional block-cyclic array (phases local, prs, comm, redist,
/// total); see pack_experiment.hpp.
Experiment pack_experiment();

/// Paper 001's Table I: β1, the block size from which CSS's local computation is no slower than
/// SSS's (quantity beta1, a block size in elements; no phases); see pack_beta1_experiment.cpp.
Experiment pack_beta1_experiment();

}  // namespace redist::sim
