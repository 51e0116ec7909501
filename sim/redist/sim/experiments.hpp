// The experiment kinds a scenario can run, each a simulation with named parameters and phases.
// `redist simulate` and `redist replay` both go through them, so a table row and a command line
// with the same parameters give the same figures.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "redist/analysis/scenario.hpp"
#include "redist/core/int_math.hpp"

namespace redist::sim {

enum class Payload { Real, Phantom, Auto };

/// What one simulated run reports.
struct ExperimentResult {
  std::map<std::string, double> phases;  ///< seconds per phase, maximum over ranks
  Index messages = 0;
  Index bytes = 0;
  std::optional<bool> verified;  ///< empty on phantom runs
  bool phantom = false;
  std::map<std::string, double> quantities;  ///< model quantities of the run (ExperimentSpec::quantities)
};

struct Experiment {
  ExperimentSpec spec;
  /// Runs one simulation on `platform`. Throws on bad parameters or a failed run.
  std::function<ExperimentResult(const std::string& platform, const Params& params, Payload payload,
                                 const std::string& trace_file)>
      run;
};

/// Every experiment kind, in a stable order.
const std::vector<Experiment>& experiment_catalog();
std::vector<ExperimentSpec> experiment_specs();
/// Throws std::invalid_argument for an unknown name.
const Experiment& find_experiment(const std::string& name);

/// The 1-D redistribution CYCLIC(r)/P -> CYCLIC(s)/Q of N elements (phases index, pack, comm,
/// unpack, total). Real payloads are verified element by element; a failed verification throws.
Experiment redistribute_experiment();

/// Paper 003's hole compression: generating one processor's compressed local array `iterations`
/// times by the table method or a virtual-processor baseline (phase generate).
Experiment holes_experiment();

/// Paper 002's symmetric matrix redistribution BC(x,*) -> BC(y,*) (or column-wise) by TR or SRA
/// (phases index, pack, comm, unpack, comp = index + pack + unpack, total). Real payloads verified.
Experiment sra_experiment();

}  // namespace redist::sim
