// What `redist simulate`, `redist sra` and `redist pack|unpack` print for one simulated run: a few
// lines of text (the run, its phases, messages and verification) or one JSON object (the shape of
// docs/ARCHITECTURE.md §7). The platform is named by its file's stem.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "redist/experiments/experiment_schema.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/experiments/pack_experiment.hpp"

namespace redist::sim {

/// A 1-D redistribution (the redistribute experiment), `v` its parameters.
std::string redistribution_run_text(const std::string& platform, const ParameterValues& v, const ExperimentResult& run);
nlohmann::ordered_json redistribution_run_json(const std::string& platform, const ParameterValues& v,
                                               const ExperimentResult& run);

/// A symmetric matrix redistribution (the sra experiment, paper 002), `v` its parameters.
std::string sra_run_text(const std::string& platform, const ParameterValues& v, const ExperimentResult& result);
nlohmann::ordered_json sra_run_json(const std::string& platform, const ParameterValues& v, const ExperimentResult& result);

/// A PACK or UNPACK (`c.unpack`) of paper 001 with `mask` (random of `density` percent, or triangle);
/// `v` the pack experiment's parameters. Shapes are written in Fortran order (N_{d-1} x ... x N_0).
std::string pack_run_text(const std::string& platform, const PackRunConfig& c, const std::string& mask, Index density,
                          const ParameterValues& v, const PackRunResult& run);
nlohmann::ordered_json pack_run_json(const std::string& platform, const PackRunConfig& c, const std::string& mask,
                                     Index density, const ParameterValues& v, const PackRunResult& run);

}  // namespace redist::sim
