// Paper 001's PACK/UNPACK as a simulated run: the "pack" experiment kind of the catalog and the
// `redist pack` / `redist unpack` commands both go through run_pack().
#pragma once

#include <string>
#include <vector>

#include "redist/pack/mask.hpp"
#include "redist/pack/preredistribution.hpp"
#include "redist/pack/schemes.hpp"
#include "redist/experiments/experiments.hpp"

namespace redist::sim {

struct PackRunConfig {
  bool unpack = false;
  std::vector<Index> extents, procs, blocks;  ///< by dimension, 0 fastest
  pack::MaskSpec mask;
  pack::Scheme scheme = pack::Scheme::Simple;
  pack::PrsAlgorithm prs = pack::PrsAlgorithm::Auto;
  pack::Preredistribution redistribution = pack::Preredistribution::None;  ///< PACK only
  Index vector_block = 0;  ///< W' of V; 0 = BLOCK
  WorkModel accounting = WorkModel::Redist;  ///< parameter work: redist | paper
};

struct PackRunResult {
  ExperimentResult experiment;  ///< phases local, prs, comm, redist, total (max over ranks)
  Index size = 0;               ///< Size: true elements of the mask
};

/// The parameters of the pack experiment (pack-beta1 takes some of them).
const ExperimentSpec& pack_schema();
/// The run a pack experiment's parameters describe; `block` > 0 replaces parameter W.
PackRunConfig pack_config(const Params& params, Index block);
/// Sets what `v` says of a run beyond its geometry and mask: scheme, prs, redistribution,
/// vector_block and work (`redist pack` gives the geometry by its own flags).
void apply_run_options(const ParameterValues& v, PackRunConfig& c);

/// Refuses (std::invalid_argument, require_memory) runs whose sequential reference, arrays and
/// messages would not fit in memory together: run_packs checks its runs with it before anything.
void check_pack_memory(const std::vector<PackRunConfig>& configs);

/// One simulated PACK or UNPACK on `platform`, one rank per processor of the grid. Each rank sends
/// back a checksum of its result; it must equal the sequential Fortran result's, else this throws.
PackRunResult run_pack(const std::string& platform, const PackRunConfig& config, const std::string& trace_file);
/// Several runs on the same processors in one simulation, one after another (a barrier between two).
std::vector<PackRunResult> run_packs(const std::string& platform, const std::vector<PackRunConfig>& configs,
                                     const std::string& trace_file);

}  // namespace redist::sim
