// Least-squares fits (Eigen) for `redist calibrate`: message time against size, piece by piece,
// and prices of local work kinds against counted work.
#pragma once

#include <vector>

#include "redist/core/int_math.hpp"

namespace redist::cli {

/// seconds ≈ intercept + slope · bytes
struct LineFit {
  double intercept = 0;
  double slope = 0;
  double at(double bytes) const { return intercept + slope * bytes; }
};

/// A piecewise-linear fit: piece k covers sizes from starts[k] up to the next start.
struct PiecewiseFit {
  std::vector<Index> starts;
  std::vector<LineFit> pieces;
  double at(Index bytes) const;
  /// Relative residuals (fitted - measured) / measured, one per measurement.
  std::vector<double> relative_residuals(const std::vector<Index>& bytes, const std::vector<double>& seconds) const;
};

/// Fits 1 to `max_pieces` pieces (breakpoints among the measured sizes, each piece at least 3
/// points), minimising squared relative residuals; a piece is added only when it reduces the worst
/// relative residual by a quarter or more. Throws std::invalid_argument for fewer than 3 points.
PiecewiseFit fit_piecewise(const std::vector<Index>& bytes, const std::vector<double>& seconds, int max_pieces = 3);

/// Non-negative prices p minimising Σ_i (Σ_k counts[i][k] p_k - seconds[i])² / seconds[i]²: the
/// least-squares solution, kinds with a negative price dropped and the rest refitted.
std::vector<double> fit_prices(const std::vector<std::vector<double>>& counts, const std::vector<double>& seconds);

}  // namespace redist::cli
