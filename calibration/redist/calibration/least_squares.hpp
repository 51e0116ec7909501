// Least-squares fits (Eigen): for `redist calibrate`, message time against size, piece by piece,
// and prices of local work kinds against counted work; for `redist fit`, a bounded non-linear fit.
#pragma once

#include <functional>
#include <vector>

#include "redist/core/int_math.hpp"

namespace redist::calibration {

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
/// With `offsets`, the priced work of row i is offsets[i] + Σ_k counts[i][k] p_k (work already priced).
std::vector<double> fit_prices(const std::vector<std::vector<double>>& counts, const std::vector<double>& seconds,
                               const std::vector<double>& offsets = {});

/// fit_prices in two stages, for kinds whose counts come only in fixed proportion to others in the
/// rows that have them (the naive scan counts one ElementScanned and two IndexOp per element, in
/// every row it has: one fit would put its cost on either, from one calibration to the next). The
/// kinds not in `later` are fitted on the rows where no kind of `later` counts; then the kinds of
/// `later` on the other rows, the first stage's prices held.
std::vector<double> fit_prices_staged(const std::vector<std::vector<double>>& counts, const std::vector<double>& seconds,
                                      const std::vector<std::size_t>& later);

/// One iteration of fit_bounded, for progress reports.
struct BoundedFitStep {
  int iteration = 0;
  double cost = 0;  ///< sum of squared residuals at x
  std::vector<double> x;
  double damping = 0;
  int evaluations = 0;  ///< residual evaluations so far
};

struct BoundedFitResult {
  std::vector<double> x;
  double cost = 0;
  int iterations = 0;
  int evaluations = 0;
  bool converged = false;  ///< false: stopped at max_iterations
};

/// Minimises Σ r_i(x)² with lower[k] <= x[k] <= upper[k] by Levenberg–Marquardt: forward-difference
/// Jacobians (step `step`, taken inwards at a bound), steps projected onto the box, and variables
/// held at a bound whose gradient pushes outwards left out of the step; stops when no step improves
/// or the root-mean-square residual is below 1e-6. Deterministic. `residuals`
/// must return as many residuals for every x; `report` is called once per iteration.
BoundedFitResult fit_bounded(const std::function<std::vector<double>(const std::vector<double>&)>& residuals,
                             std::vector<double> x, const std::vector<double>& lower, const std::vector<double>& upper,
                             const std::function<void(const BoundedFitStep&)>& report, int max_iterations = 40,
                             double step = 1e-4);

}  // namespace redist::calibration
