// The figures `redist validate` reports over its cases: the median and 90th percentile of
// |simulated - measured| / measured, how often the simulator is optimistic, and the worst cases;
// where the misses lie, phase by phase and by the number of ranks.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "redist/core/int_math.hpp"
#include "redist/transport/phases.hpp"

namespace redist::calibration {

struct ValidationSummary {
  double median = 0;  ///< of the relative errors
  double p90 = 0;     ///< 90th percentile, linear between the nearest ranks (numpy's default)
  int optimistic = 0;  ///< cases simulated faster than measured
  std::vector<std::size_t> worst;  ///< up to five cases, largest relative error first (ties: lower index)
};

/// The median of the values, linear between the two middle ones (0 for none).
double median(std::vector<double> values);

/// Over cases i with measured[i] > 0 and simulated[i] seconds (same lengths, not empty).
ValidationSummary summarise_validation(const std::vector<double>& measured, const std::vector<double>& simulated);

/// One phase's miss over the cases.
struct PhaseMiss {
  std::string phase;  ///< index, pack, comm or unpack
  /// Median over the cases that measured the phase (> 0) of simulated / measured.
  double median_ratio = 0;
  /// Median over all cases of |simulated - measured| of the phase / the measured total: its share of
  /// the total's error.
  double median_share = 0;
  int cases = 0;  ///< cases that measured the phase
};

/// Each redistribution phase's miss (phases of the slowest rank of each run, as reported).
std::vector<PhaseMiss> phase_misses(const std::vector<Phases>& measured, const std::vector<Phases>& simulated);

/// The totals' miss over the cases of one rank count.
struct RankCountMiss {
  Index ranks = 0;
  int cases = 0;
  double median = 0, p90 = 0;  ///< of |simulated - measured| / measured
  double geometric_mean_ratio = 0;  ///< of simulated / measured: > 1 pessimistic
};

/// By rank count, fewest ranks first. Same lengths, totals > 0.
std::vector<RankCountMiss> rank_count_misses(const std::vector<Index>& ranks, const std::vector<double>& measured,
                                             const std::vector<double>& simulated);

/// How much a measurement moves between passes over the cases: per case, its slowest pass's total
/// over its fastest's, minus 1; the median and 90th percentile of that over the cases.
struct RoundSpread {
  double median = 0;
  double p90 = 0;
};

/// Over cases each measured in the same number (two or more) of passes, every total > 0.
RoundSpread summarise_round_spread(const std::vector<std::vector<double>>& totals_by_case);

}  // namespace redist::calibration
