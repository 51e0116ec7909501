#include "redist/calibration/validation_summary.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace redist::calibration {
namespace {

// The q-quantile of sorted values, linear between the two nearest ranks.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

ValidationSummary summarise_validation(const std::vector<double>& measured, const std::vector<double>& simulated) {
  if (measured.empty() || measured.size() != simulated.size()) {
    throw std::invalid_argument("validation summary: no cases, or measured and simulated of different lengths");
  }
  std::vector<double> errors;
  ValidationSummary summary;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    errors.push_back(std::abs(simulated[i] - measured[i]) / measured[i]);
    summary.optimistic += simulated[i] < measured[i];
  }
  std::vector<std::size_t> order(errors.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return errors[a] > errors[b]; });
  order.resize(std::min<std::size_t>(order.size(), 5));
  summary.worst = order;
  std::sort(errors.begin(), errors.end());
  summary.median = quantile(errors, 0.5);
  summary.p90 = quantile(errors, 0.9);
  return summary;
}

RoundSpread summarise_round_spread(const std::vector<std::vector<double>>& totals_by_case) {
  if (totals_by_case.empty()) throw std::invalid_argument("round spread: no cases");
  std::vector<double> spreads;
  for (const std::vector<double>& totals : totals_by_case) {
    if (totals.size() < 2) throw std::invalid_argument("round spread: a case measured in fewer than two passes");
    const auto [fastest, slowest] = std::minmax_element(totals.begin(), totals.end());
    if (*fastest <= 0) throw std::invalid_argument("round spread: a total is not positive");
    spreads.push_back(*slowest / *fastest - 1);
  }
  std::sort(spreads.begin(), spreads.end());
  return {.median = quantile(spreads, 0.5), .p90 = quantile(spreads, 0.9)};
}

}  // namespace redist::calibration
