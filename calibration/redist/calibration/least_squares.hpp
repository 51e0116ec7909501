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

/// fit_prices_staged, then once more without the rows it misses by more than a quarter of their
/// time and by more than three times the median miss (relative): runs whose time is not their
/// counted work's (pages faulted anew, a list grown by reallocation, another process on the core),
/// which least squares would otherwise spread over every price. `left_out`, where given, receives
/// those rows' indices (increasing). Needs as many rows kept as kinds counted, else keeps all.
std::vector<double> fit_prices_staged_trimmed(const std::vector<std::vector<double>>& counts,
                                              const std::vector<double>& seconds, const std::vector<std::size_t>& later,
                                              std::vector<std::size_t>* left_out = nullptr);

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


/// Leave-one-group-out cross-validation of a fit_bounded fit: for each group, the fit on every cell
/// outside it, scored on the cells inside it.
struct CrossValidation {
  std::vector<double> held_out;  ///< every cell's residual under the fit that left its group out
  double cost = 0;               ///< Σ held_out²: the fit's own objective, on cells it did not see
  std::vector<std::vector<double>> fold_x;  ///< each group's fit (the full x), group by group
};

/// The residual of every cell at x (as many for every x), as fit_bounded's `residuals`.
using Residuals = std::function<std::vector<double>(const std::vector<double>&)>;

/// A bounded fit of the coordinates marked in `free` (the others held at `prior`, started at `start`)
/// on the cells whose mask entry is true. Returns the full x. With no free coordinate: `prior`.
std::vector<double> fit_on(const Residuals& residuals, const std::vector<bool>& cells, const std::vector<double>& start,
                           const std::vector<double>& prior, const std::vector<double>& lower,
                           const std::vector<double>& upper, const std::vector<bool>& free,
                           const std::function<void(const BoundedFitStep&)>& report, int max_iterations = 40);

/// `group[i]` is cell i's group, 0 .. groups − 1 (every group non-empty, at least 2 of them).
CrossValidation cross_validate(const Residuals& residuals, const std::vector<int>& group,
                               const std::vector<double>& start, const std::vector<double>& prior,
                               const std::vector<double>& lower, const std::vector<double>& upper,
                               const std::vector<bool>& free, const std::function<void(const BoundedFitStep&)>& report,
                               int max_iterations = 40);

/// A fitted value keeps its place only when fitting it lowers the cross-validated cost by more than
/// this share, against holding it at its prior: smaller gains are within what one noisy group moves.
inline constexpr double kCrossValidatedGain = 0.01;

struct Selection {
  std::vector<bool> kept;           ///< the values fitted; the others stay at their prior
  CrossValidation all;              ///< every value fitted
  CrossValidation selected;         ///< the kept values fitted (== all when none is dropped)
  std::vector<std::size_t> dropped; ///< in the order they were dropped
};

/// Backward elimination by cross-validation: starting from every value fitted, find the value whose
/// holding at its prior gives the lowest cross-validated cost; drop it when the set with it is not
/// lower by more than kCrossValidatedGain (cost(with) ≥ (1 − gain)·cost(without)), and repeat on the
/// values left; stop when every value left earns its place. `progress` hears each candidate set.
/// With `score`, each fold is fitted on `residuals` (a model, say) and its held-out cells are scored
/// by `score` (rescored: one evaluation per group and candidate set).
Selection select_by_cross_validation(const Residuals& residuals, const std::vector<int>& group,
                                     const std::vector<double>& start, const std::vector<double>& prior,
                                     const std::vector<double>& lower, const std::vector<double>& upper,
                                     const std::function<void(const std::vector<bool>&, const CrossValidation&)>& progress,
                                     int max_iterations = 40, const Residuals& score = {});

/// The first-order model of `residuals` at x_star: r(x*) + J·(x − x*), J by forward differences of
/// `step` (inwards at an upper bound): n + 1 evaluations, then none. Lets a cross-validation whose
/// residuals cost a replay each fit its folds in memory.
Residuals linearised(const Residuals& residuals, const std::vector<double>& x_star, const std::vector<double>& upper,
                     double step = 1e-4);

/// `cv` with every held-out residual recomputed by `residuals` at its fold's fit (one evaluation per
/// group): a fold fitted on a model of the residuals, scored on the residuals themselves.
CrossValidation rescored(const Residuals& residuals, const std::vector<int>& group, CrossValidation cv);

/// Median of |e^r − 1| (the relative error of a log residual r); 0 for none.
double median_relative_error(const std::vector<double>& log_residuals);

}  // namespace redist::calibration
