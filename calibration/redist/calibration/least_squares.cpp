#include "redist/calibration/least_squares.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
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

}  // namespace redist::calibration

namespace redist::calibration {
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

}  // namespace redist::calibration
