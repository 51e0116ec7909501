// Replay results: one record per (parameters, method, phase), the simulated value beside the
// published one, comparison metrics, and the report files (Markdown, CSV, JSON).
//
// JSON record format (stable; documented in scenarios/README.md):
//   {"scenario":..,"paper":..,"table":..,"params":{..},"method":..,"phase":..,
//    "simulated":<number>,"published":<number|null>,"unit":"s|ms|us"}
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "redist/experiments/scenario.hpp"

namespace redist {

struct Record {
  Params params;  ///< every parameter of the run (fixed and swept; method options excluded)
  std::string method;
  std::string phase;
  double simulated;                ///< in the scenario's unit
  std::optional<double> published; ///< in the scenario's unit
  std::map<std::string, double> quantities;  ///< the run's model quantities (for `follows` claims)
};

struct ClaimResult {
  std::string claim;
  bool holds = false;
  std::string detail;  ///< the evidence: rows that agree, or the first row that does not
};

struct ComparisonMetrics {
  /// Share of rows (parameters, phase) whose published values order at least two methods where the
  /// simulated values order every such pair the same way. Methods the paper prints as equal are not
  /// ordered by it: any simulated order of them agrees.
  std::optional<double> ordering_agreement;
  int ordering_rows = 0;
  /// Median of |simulated − published| / published over published cells.
  std::optional<double> median_relative_error;
  int published_cells = 0;
  std::vector<ClaimResult> claims;  ///< the scenario's claims, checked (see claims.hpp)
};

/// Attaches the published value (if any) to each record.
void attach_published(const Scenario& scenario, std::vector<Record>& records);
ComparisonMetrics compare(const std::vector<Record>& records);

std::string markdown_report(const Scenario& scenario, const std::vector<Record>& records, const ComparisonMetrics& metrics);
std::string csv_report(const Scenario& scenario, const std::vector<Record>& records);
nlohmann::ordered_json json_report(const Scenario& scenario, const std::vector<Record>& records,
                                   const ComparisonMetrics& metrics);

}  // namespace redist
