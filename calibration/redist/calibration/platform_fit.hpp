// `redist fit`'s fit: at most 6 named platform values, each inside its plausible range, moved to
// match the published cells of the train scenarios. The objective is Σ (log simulated − log
// published)² over every published cell (relative errors), minimised in log-parameter space by a
// bounded Levenberg–Marquardt (least_squares.hpp), each evaluation a replay of the train scenarios
// on a candidate platform.
#pragma once

#include <ostream>
#include <string>

#include "redist/calibration/fit_spec.hpp"

namespace redist::calibration {

struct PlatformFitResult {
  std::string table;  ///< Markdown: each value derived and fitted, and the train error before and after
  std::string file;   ///< the fitted platform written
};

/// Fits the spec's values (`jobs` simulations in parallel), writes the fitted platform whole to
/// `out` (empty: the spec's `fitted`), with every value's comment and a header saying how it was
/// made; progress lines go to `log`. Throws std::runtime_error when the train scenarios have no
/// published cell.
PlatformFitResult fit_platform(const FitSpec& spec, int jobs, const std::string& out, std::ostream& log);

}  // namespace redist::calibration
