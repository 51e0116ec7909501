// The qualitative claims of a paper (scenario `claims:`), checked on simulated values: where a paper
// gives no numbers (or they are withheld), its statements are what a replay can be judged by.
#pragma once

#include <string>
#include <vector>

#include "redist/reports/replay_report.hpp"

namespace redist {

/// Checks every claim of `scenario` on `records` (one record per run, method and phase).
std::vector<ClaimResult> check_claims(const Scenario& scenario, const std::vector<Record>& records);

}  // namespace redist
