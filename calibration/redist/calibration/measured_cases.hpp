// The measurements of an earlier `redist validate --json`, for `redist validate --measured`: its cases
// re-simulated on another platform (a model changed since) without measuring them again, so that a
// change is scored on runs already taken, on the machine they were taken on.
#pragma once

#include <string>
#include <vector>

#include "redist/calibration/validation_case.hpp"
#include "redist/calibration/validation_runs.hpp"

namespace redist::calibration {

/// Each case's fastest measured phases and its rounds' totals, read from `file` (the JSON `redist
/// validate --json` printed). Throws std::runtime_error with one line when the file cannot be read,
/// is not such JSON, or holds other cases than `expected` (by label, in order): the first that differs.
CaseMeasurements read_measured_cases(const std::string& file, const std::vector<ValidationCase>& expected);

}  // namespace redist::calibration
