#include "redist/calibration/least_squares.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace redist::calibration {
namespace {

// Relative weighting: each row divided by its measured value, so that 1 µs and 10 ms count alike.
LineFit fit_line(const std::vector<Index>& bytes, const std::vector<double>& seconds, std::size_t first,
                 std::size_t last) {
  const auto n = static_cast<Eigen::Index>(last - first);
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::size_t k = first + static_cast<std::size_t>(i);
    a(i, 0) = 1 / seconds[k];
    a(i, 1) = static_cast<double>(bytes[k]) / seconds[k];
    b(i) = 1;
  }
  const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
  return {std::max(0.0, x(0)), std::max(0.0, x(1))};
}

double worst(const PiecewiseFit& fit, const std::vector<Index>& bytes, const std::vector<double>& seconds) {
  double most = 0;
  for (const double r : fit.relative_residuals(bytes, seconds)) most = std::max(most, std::abs(r));
  return most;
}

double squared(const PiecewiseFit& fit, const std::vector<Index>& bytes, const std::vector<double>& seconds) {
  double sum = 0;
  for (const double r : fit.relative_residuals(bytes, seconds)) sum += r * r;
  return sum;
}

PiecewiseFit with_breaks(const std::vector<Index>& bytes, const std::vector<double>& seconds,
                         const std::vector<std::size_t>& breaks) {
  PiecewiseFit fit;
  std::size_t first = 0;
  for (std::size_t k = 0; k <= breaks.size(); ++k) {
    const std::size_t last = k < breaks.size() ? breaks[k] : bytes.size();
    fit.starts.push_back(k == 0 ? 0 : bytes[first]);
    fit.pieces.push_back(fit_line(bytes, seconds, first, last));
    first = last;
  }
  return fit;
}

}  // namespace

double PiecewiseFit::at(Index bytes) const {
  std::size_t k = 0;
  while (k + 1 < starts.size() && bytes >= starts[k + 1]) ++k;
  return pieces[k].at(static_cast<double>(bytes));
}

std::vector<double> PiecewiseFit::relative_residuals(const std::vector<Index>& bytes,
                                                     const std::vector<double>& seconds) const {
  std::vector<double> out;
  for (std::size_t i = 0; i < bytes.size(); ++i) out.push_back((at(bytes[i]) - seconds[i]) / seconds[i]);
  return out;
}

PiecewiseFit fit_piecewise(const std::vector<Index>& bytes, const std::vector<double>& seconds, int max_pieces) {
  if (bytes.size() < 3 || bytes.size() != seconds.size()) {
    throw std::invalid_argument("a fit needs at least 3 measurements, got " + std::to_string(bytes.size()));
  }
  constexpr std::size_t kMinPoints = 3;
  PiecewiseFit best = with_breaks(bytes, seconds, {});
  std::vector<std::size_t> breaks;
  for (int pieces = 2; pieces <= max_pieces; ++pieces) {
    PiecewiseFit candidate;
    std::vector<std::size_t> candidate_breaks;
    double candidate_error = std::numeric_limits<double>::infinity();
    // One more breakpoint anywhere that leaves every piece its points.
    for (std::size_t at = kMinPoints; at + kMinPoints <= bytes.size(); ++at) {
      if (std::find(breaks.begin(), breaks.end(), at) != breaks.end()) continue;
      std::vector<std::size_t> trial = breaks;
      trial.push_back(at);
      std::sort(trial.begin(), trial.end());
      bool wide_enough = trial.front() >= kMinPoints && bytes.size() - trial.back() >= kMinPoints;
      for (std::size_t k = 1; k < trial.size(); ++k) wide_enough = wide_enough && trial[k] - trial[k - 1] >= kMinPoints;
      if (!wide_enough) continue;
      const PiecewiseFit fit = with_breaks(bytes, seconds, trial);
      const double error = squared(fit, bytes, seconds);
      if (error < candidate_error) {
        candidate_error = error;
        candidate = fit;
        candidate_breaks = trial;
      }
    }
    if (candidate.pieces.empty() || worst(candidate, bytes, seconds) > 0.75 * worst(best, bytes, seconds)) break;
    best = candidate;
    breaks = candidate_breaks;
  }
  return best;
}

std::vector<double> fit_prices(const std::vector<std::vector<double>>& counts, const std::vector<double>& seconds,
                               const std::vector<double>& offsets) {
  if (counts.empty()) throw std::invalid_argument("no measurements to fit prices to");
  const std::size_t kinds = counts.front().size();
  std::vector<bool> used(kinds, true);
  for (std::size_t k = 0; k < kinds; ++k) {
    used[k] = std::any_of(counts.begin(), counts.end(), [&](const auto& row) { return row[k] > 0; });
  }
  std::vector<double> prices(kinds, 0);
  for (;;) {
    std::vector<std::size_t> columns;
    for (std::size_t k = 0; k < kinds; ++k) {
      if (used[k]) columns.push_back(k);
    }
    if (columns.empty()) return prices;
    Eigen::MatrixXd a(static_cast<Eigen::Index>(counts.size()), static_cast<Eigen::Index>(columns.size()));
    Eigen::VectorXd b(static_cast<Eigen::Index>(counts.size()));
    for (std::size_t i = 0; i < counts.size(); ++i) {
      b(static_cast<Eigen::Index>(i)) = 1 - (offsets.empty() ? 0.0 : offsets[i]) / seconds[i];
      for (std::size_t c = 0; c < columns.size(); ++c) {
        a(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = counts[i][columns[c]] / seconds[i];
      }
    }
    const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
    bool negative = false;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (x(static_cast<Eigen::Index>(c)) < 0) {
        used[columns[c]] = false;
        negative = true;
      }
    }
    if (negative) continue;
    std::fill(prices.begin(), prices.end(), 0.0);
    for (std::size_t c = 0; c < columns.size(); ++c) prices[columns[c]] = x(static_cast<Eigen::Index>(c));
    return prices;
  }
}

std::vector<double> fit_prices_staged(const std::vector<std::vector<double>>& counts, const std::vector<double>& seconds,
                                      const std::vector<std::size_t>& later) {
  const auto has_later = [&](const std::vector<double>& row) {
    return std::any_of(later.begin(), later.end(), [&](std::size_t k) { return row[k] > 0; });
  };
  std::vector<std::vector<double>> first_counts, second_counts;
  std::vector<double> first_seconds, second_seconds;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    (has_later(counts[i]) ? second_counts : first_counts).push_back(counts[i]);
    (has_later(counts[i]) ? second_seconds : first_seconds).push_back(seconds[i]);
  }
  std::vector<double> prices(counts.empty() ? 0 : counts.front().size(), 0.0);
  if (!first_counts.empty()) prices = fit_prices(first_counts, first_seconds);
  for (const std::size_t k : later) prices[k] = 0;  // absent from the first stage's rows anyway
  if (second_counts.empty()) return prices;
  // The second stage: the held kinds' work as an offset, only the kinds of `later` as columns.
  std::vector<double> offsets;
  std::vector<std::vector<double>> later_counts;
  for (const auto& row : second_counts) {
    double held = 0;
    std::vector<double> columns(row.size(), 0.0);
    for (std::size_t k = 0; k < row.size(); ++k) {
      const bool is_later = std::find(later.begin(), later.end(), k) != later.end();
      if (is_later) {
        columns[k] = row[k];
      } else {
        held += row[k] * prices[k];
      }
    }
    offsets.push_back(held);
    later_counts.push_back(columns);
  }
  const std::vector<double> second = fit_prices(later_counts, second_seconds, offsets);
  for (const std::size_t k : later) prices[k] = second[k];
  return prices;
}

std::vector<double> fit_prices_staged_trimmed(const std::vector<std::vector<double>>& counts,
                                              const std::vector<double>& seconds, const std::vector<std::size_t>& later,
                                              std::vector<std::size_t>* left_out) {
  if (left_out != nullptr) left_out->clear();
  const std::vector<double> first = fit_prices_staged(counts, seconds, later);
  std::vector<double> misses;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    double fitted = 0;
    for (std::size_t k = 0; k < first.size(); ++k) fitted += first[k] * counts[i][k];
    misses.push_back(std::abs(fitted - seconds[i]) / seconds[i]);
  }
  std::vector<double> sorted = misses;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
  const double bound = std::max(0.25, 3 * sorted[sorted.size() / 2]);
  std::vector<std::vector<double>> kept_counts;
  std::vector<double> kept_seconds;
  std::vector<std::size_t> dropped;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (misses[i] > bound) {
      dropped.push_back(i);
    } else {
      kept_counts.push_back(counts[i]);
      kept_seconds.push_back(seconds[i]);
    }
  }
  const std::size_t kinds = counts.front().size();
  if (dropped.empty() || kept_counts.size() < kinds) return first;
  // Every kind some row counts must still be counted by a kept row, or its price would fall to 0.
  for (std::size_t k = 0; k < kinds; ++k) {
    const auto counted = [&](const std::vector<double>& row) { return row[k] > 0; };
    if (std::any_of(counts.begin(), counts.end(), counted) && std::none_of(kept_counts.begin(), kept_counts.end(), counted)) {
      return first;
    }
  }
  if (left_out != nullptr) *left_out = dropped;
  return fit_prices_staged(kept_counts, kept_seconds, later);
}

namespace {

Eigen::VectorXd as_vector(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

std::vector<double> as_std(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

}  // namespace

BoundedFitResult fit_bounded(const std::function<std::vector<double>(const std::vector<double>&)>& residuals,
                             std::vector<double> x0, const std::vector<double>& lower, const std::vector<double>& upper,
                             const std::function<void(const BoundedFitStep&)>& report, int max_iterations,
                             double step) {
  const auto n = static_cast<Eigen::Index>(x0.size());
  const Eigen::VectorXd lo = as_vector(lower), hi = as_vector(upper);
  Eigen::VectorXd x = as_vector(x0).cwiseMax(lo).cwiseMin(hi);
  constexpr double kSmallestDecrease = 1e-4;  // relative
  int evaluations = 0;
  const auto evaluate = [&](const Eigen::VectorXd& at) {
    ++evaluations;
    return as_vector(residuals(as_std(at)));
  };
  Eigen::VectorXd r = evaluate(x);
  double cost = r.squaredNorm();
  double damping = 1e-3;
  BoundedFitResult result;
  for (int iteration = 1; iteration <= max_iterations; ++iteration) {
    Eigen::MatrixXd jacobian(r.size(), n);
    for (Eigen::Index k = 0; k < n; ++k) {
      Eigen::VectorXd moved = x;
      const double h = x(k) + step <= hi(k) ? step : -step;  // inwards at the upper bound
      moved(k) += h;
      jacobian.col(k) = (evaluate(moved) - r) / h;
    }
    const Eigen::VectorXd gradient = jacobian.transpose() * r;
    // Free variables: inside the box, or at a bound with the descent direction pointing inwards.
    std::vector<Eigen::Index> movable;
    for (Eigen::Index k = 0; k < n; ++k) {
      const bool held = (x(k) <= lo(k) && gradient(k) > 0) || (x(k) >= hi(k) && gradient(k) < 0);
      if (!held) movable.push_back(k);
    }
    bool improved = false;
    double last_change = 0;
    while (!movable.empty() && damping < 1e12) {
      const auto m = static_cast<Eigen::Index>(movable.size());
      Eigen::MatrixXd a(m, m);
      Eigen::VectorXd b(m);
      for (Eigen::Index i = 0; i < m; ++i) {
        for (Eigen::Index j = 0; j < m; ++j) a(i, j) = jacobian.col(movable[i]).dot(jacobian.col(movable[j]));
        b(i) = -gradient(movable[i]);
      }
      for (Eigen::Index i = 0; i < m; ++i) a(i, i) += damping * std::max(a(i, i), 1e-12);
      const Eigen::VectorXd delta = a.ldlt().solve(b);
      Eigen::VectorXd candidate = x;
      for (Eigen::Index i = 0; i < m; ++i) candidate(movable[i]) += delta(i);
      candidate = candidate.cwiseMax(lo).cwiseMin(hi);
      last_change = (candidate - x).cwiseAbs().maxCoeff();
      if (last_change == 0) break;
      const Eigen::VectorXd candidate_r = evaluate(candidate);
      const double candidate_cost = candidate_r.squaredNorm();
      if (candidate_cost < cost) {
        const double decrease = cost - candidate_cost;
        x = candidate;
        r = candidate_r;
        cost = candidate_cost;
        damping = std::max(damping / 3, 1e-9);
        // A step that lowers the cost by less than 0.01% moves the values far less than the 1% a fit
        // can vouch for: another Jacobian (one replay of the train tables per value) is not worth it.
        improved = decrease > kSmallestDecrease * std::max(cost, 1e-30) && last_change > 1e-9;
        if (!improved) last_change = 0;
        break;
      }
      damping *= 4;
    }
    report({iteration, cost, as_std(x), damping, evaluations});
    result.iterations = iteration;
    // Converged: no step improves, or the residuals are at rounding level (1e-6 relative per cell).
    if (!improved || cost < 1e-12 * static_cast<double>(r.size())) {
      result.converged = true;
      break;
    }
  }
  result.x = as_std(x);
  result.cost = cost;
  result.evaluations = evaluations;
  return result;
}


std::vector<double> fit_on(const Residuals& residuals, const std::vector<bool>& cells, const std::vector<double>& start,
                           const std::vector<double>& prior, const std::vector<double>& lower,
                           const std::vector<double>& upper, const std::vector<bool>& free,
                           const std::function<void(const BoundedFitStep&)>& report, int max_iterations) {
  std::vector<std::size_t> moved;
  for (std::size_t k = 0; k < free.size(); ++k) {
    if (free[k]) moved.push_back(k);
  }
  if (moved.empty()) return prior;
  const auto full = [&](const std::vector<double>& x) {
    std::vector<double> out = prior;
    for (std::size_t i = 0; i < moved.size(); ++i) out[moved[i]] = x[i];
    return out;
  };
  const auto subset = [&](const std::vector<double>& x) {
    const std::vector<double> all = residuals(full(x));
    std::vector<double> out;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (cells[i]) out.push_back(all[i]);
    }
    return out;
  };
  std::vector<double> x0, lo, hi;
  for (const std::size_t k : moved) {
    x0.push_back(start[k]);
    lo.push_back(lower[k]);
    hi.push_back(upper[k]);
  }
  const auto result = fit_bounded(
      subset, x0, lo, hi,
      [&](const BoundedFitStep& step) {
        if (report) report({step.iteration, step.cost, full(step.x), step.damping, step.evaluations});
      },
      max_iterations);
  return full(result.x);
}

CrossValidation cross_validate(const Residuals& residuals, const std::vector<int>& group,
                               const std::vector<double>& start, const std::vector<double>& prior,
                               const std::vector<double>& lower, const std::vector<double>& upper,
                               const std::vector<bool>& free, const std::function<void(const BoundedFitStep&)>& report,
                               int max_iterations) {
  const int groups = group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;
  if (groups < 2) throw std::invalid_argument("cross-validation needs at least 2 groups of cells");
  CrossValidation cv;
  cv.held_out.assign(group.size(), 0.0);
  for (int g = 0; g < groups; ++g) {
    std::vector<bool> train(group.size());
    for (std::size_t i = 0; i < group.size(); ++i) train[i] = group[i] != g;
    const std::vector<double> x = fit_on(residuals, train, start, prior, lower, upper, free, report, max_iterations);
    const std::vector<double> all = residuals(x);
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (!train[i]) cv.held_out[i] = all[i];
    }
    cv.fold_x.push_back(x);
  }
  for (const double r : cv.held_out) cv.cost += r * r;
  return cv;
}

Selection select_by_cross_validation(const Residuals& residuals, const std::vector<int>& group,
                                     const std::vector<double>& start, const std::vector<double>& prior,
                                     const std::vector<double>& lower, const std::vector<double>& upper,
                                     const std::function<void(const std::vector<bool>&, const CrossValidation&)>& progress,
                                     int max_iterations, const Residuals& score) {
  const auto validate = [&](const std::vector<bool>& free) {
    CrossValidation cv = cross_validate(residuals, group, start, prior, lower, upper, free, {}, max_iterations);
    if (score) cv = rescored(score, group, std::move(cv));
    if (progress) progress(free, cv);
    return cv;
  };
  Selection s;
  s.kept.assign(start.size(), true);
  s.all = validate(s.kept);
  s.selected = s.all;
  for (;;) {
    std::optional<std::size_t> best;
    CrossValidation best_cv;
    for (std::size_t k = 0; k < s.kept.size(); ++k) {
      if (!s.kept[k]) continue;
      std::vector<bool> without = s.kept;
      without[k] = false;
      CrossValidation cv = validate(without);
      if (!best || cv.cost < best_cv.cost) {
        best = k;
        best_cv = std::move(cv);
      }
    }
    // The value whose absence costs least earns its place only by a clear cross-validated gain.
    if (!best || s.selected.cost < (1 - kCrossValidatedGain) * best_cv.cost) break;
    s.kept[*best] = false;
    s.dropped.push_back(*best);
    s.selected = std::move(best_cv);
  }
  return s;
}

Residuals linearised(const Residuals& residuals, const std::vector<double>& x_star, const std::vector<double>& upper,
                     double step) {
  const Eigen::VectorXd at = as_vector(x_star);
  const Eigen::VectorXd r0 = as_vector(residuals(x_star));
  Eigen::MatrixXd jacobian(r0.size(), at.size());
  for (Eigen::Index k = 0; k < at.size(); ++k) {
    std::vector<double> moved = x_star;
    const double h = moved[static_cast<std::size_t>(k)] + step <= upper[static_cast<std::size_t>(k)] ? step : -step;
    moved[static_cast<std::size_t>(k)] += h;
    jacobian.col(k) = (as_vector(residuals(moved)) - r0) / h;
  }
  return [at, r0, jacobian](const std::vector<double>& x) { return as_std(r0 + jacobian * (as_vector(x) - at)); };
}

CrossValidation rescored(const Residuals& residuals, const std::vector<int>& group, CrossValidation cv) {
  cv.cost = 0;
  for (std::size_t g = 0; g < cv.fold_x.size(); ++g) {
    const std::vector<double> all = residuals(cv.fold_x[g]);
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (group[i] == static_cast<int>(g)) cv.held_out[i] = all[i];
    }
  }
  for (const double r : cv.held_out) cv.cost += r * r;
  return cv;
}

double median_relative_error(const std::vector<double>& log_residuals) {
  std::vector<double> errors;
  for (const double r : log_residuals) errors.push_back(std::abs(std::expm1(r)));
  std::sort(errors.begin(), errors.end());
  const std::size_t n = errors.size();
  if (n == 0) return 0;
  return n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
}

}  // namespace redist::calibration
