#include "redist/experiments/experiments.hpp"

#include <stdexcept>

namespace redist::sim {

const std::vector<Experiment>& experiment_catalog() {
  static const std::vector<Experiment> catalog = {redistribute_experiment(), holes_experiment(), sra_experiment(),
                                                     pack_experiment(), pack_beta1_experiment()};
  return catalog;
}

RunSummary verified_summary(const std::vector<std::string>& rank_reports) {
  RunSummary summary = summarize_ranks(rank_reports);
  if (summary.verified && !*summary.verified) {
    throw std::runtime_error("verification failed: " + std::to_string(summary.misplaced) +
                             " destination elements hold wrong values");
  }
  return summary;
}

std::vector<ExperimentSpec> experiment_specs() {
  std::vector<ExperimentSpec> specs;
  for (const auto& e : experiment_catalog()) specs.push_back(e.spec);
  return specs;
}

const Experiment& find_experiment(const std::string& name) {
  for (const auto& e : experiment_catalog()) {
    if (e.spec.name == name) return e;
  }
  throw std::invalid_argument("unknown experiment '" + name + "'");
}

}  // namespace redist::sim
