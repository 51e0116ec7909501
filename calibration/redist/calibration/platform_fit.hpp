// `redist fit`'s fit: at most 6 named platform values, each inside its plausible range, moved to
// match the published cells of the train scenarios. The objective is Σ (log simulated − log
// published)² over every published cell (relative errors), minimised in log-parameter space by a
// bounded Levenberg–Marquardt (least_squares.hpp), each evaluation a replay of the train scenarios
// on a candidate platform. It also cross-validates: leave one group of cells out (a table, else a
// direction, else a size band), fit on the rest, score the group; a value whose fitting does not lower
// that held-out error is held at its derived value. The train and cross-validated errors go to the
// table, the fitted file's header (read back by the replay's SUMMARY.md) and the JSON report.
#pragma once

#include <ostream>
#include <string>

#include "redist/calibration/fit_spec.hpp"

namespace redist::calibration {

struct PlatformFitResult {
  std::string table;  ///< Markdown: each value derived and fitted, and the train error before and after
  std::string file;   ///< the fitted platform written
};

struct PlatformFitSettings {
  int jobs = 1;                 ///< simulations in parallel
  std::string out;              ///< the fitted platform (empty: the spec's `fitted`)
  std::string json;             ///< the report as JSON, when not empty
  /// linearised: each left-out group fitted on the first-order model of the replays at the full fit,
  /// scored by replays; exact: each fit by replays; none: no cross-validation, no value dropped.
  std::string cross_validation = "linearised";
};

/// Fits the spec's values, writes the fitted platform whole, with every value's comment and a header
/// saying how it was made (and the JSON report when asked); progress lines go to `log`. Throws
/// std::runtime_error when the train scenarios have no published cell.
PlatformFitResult fit_platform(const FitSpec& spec, const PlatformFitSettings& settings, std::ostream& log);

}  // namespace redist::calibration
