// The figures `redist validate` reports over its cases: the median and 90th percentile of
// |simulated - measured| / measured, how often the simulator is optimistic, and the worst cases.
#pragma once

#include <cstddef>
#include <vector>

namespace redist::calibration {

struct ValidationSummary {
  double median = 0;  ///< of the relative errors
  double p90 = 0;     ///< 90th percentile, linear between the nearest ranks (numpy's default)
  int optimistic = 0;  ///< cases simulated faster than measured
  std::vector<std::size_t> worst;  ///< up to five cases, largest relative error first (ties: lower index)
};

/// Over cases i with measured[i] > 0 and simulated[i] seconds (same lengths, not empty).
ValidationSummary summarise_validation(const std::vector<double>& measured, const std::vector<double>& simulated);

/// How much a measurement moves between passes over the cases: per case, its slowest pass's total
/// over its fastest's, minus 1; the median and 90th percentile of that over the cases.
struct RoundSpread {
  double median = 0;
  double p90 = 0;
};

/// Over cases each measured in the same number (two or more) of passes, every total > 0.
RoundSpread summarise_round_spread(const std::vector<std::vector<double>>& totals_by_case);

}  // namespace redist::calibration
