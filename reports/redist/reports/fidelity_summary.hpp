// One summary of fidelity for a multi-scenario replay (`redist replay --all`): per scenario its role,
// platform (derived or fitted), work accounting, published cells, median relative error, ordering
// agreement and claims holding; the same figures per paper and overall, train and test apart.
// Written as SUMMARY.md and summary.json (format in scenarios/README.md, "Summary of fidelity").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/reports/replay_report.hpp"

namespace redist {

/// Written by `redist fit` into every fitted platform file; its presence makes a platform "fitted".
inline constexpr const char* kFittedPlatformMarker = "FITTED by `redist fit";
/// Starts the line of a fitted platform's header that gives the fit's train and cross-validated
/// median relative errors ("fit errors: train median relative error 15.9%, cross-validated 23.1% (...)").
inline constexpr const char* kFitErrorsMarker = "fit errors: ";

/// What a fitted platform's header says of its fit.
struct FitErrors {
  std::optional<double> train;            ///< median relative error on the train cells, fitted values
  std::optional<double> cross_validated;  ///< the same, each cell scored by the fit that left its group out
  std::string validation;                 ///< how the cells were grouped ("leave one direction out, 2 groups")
};

/// The fit errors in a platform file's header; nullopt when the file has no such line.
std::optional<FitErrors> read_fit_errors(const std::string& platform_file);

/// What the summary keeps of one replayed scenario.
struct ScenarioFidelity {
  std::string scenario, paper, role;
  std::string platform;       ///< file name
  bool fitted = false;        ///< the platform file carries kFittedPlatformMarker
  std::optional<FitErrors> fit;   ///< what the fitted platform's header says of its fit
  std::vector<std::string> work;  ///< values of the `work` run parameter, if any run sets it
  std::vector<double> errors;     ///< |simulated − published| / published per published cell
  int ordering_rows = 0, ordering_agreeing = 0;
  int claims = 0, claims_holding = 0;
};

ScenarioFidelity scenario_fidelity(const Scenario& scenario, const std::vector<Record>& records,
                                   const ComparisonMetrics& metrics);

/// The paper's short label: the digits its file name starts with ("000_6d1....txt" -> "000").
std::string paper_label(const std::string& paper_file);

std::string fidelity_markdown(const std::vector<ScenarioFidelity>& scenarios);
nlohmann::ordered_json fidelity_json(const std::vector<ScenarioFidelity>& scenarios);

}  // namespace redist
