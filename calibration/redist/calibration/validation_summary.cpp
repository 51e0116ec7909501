#include "redist/calibration/validation_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

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

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return quantile(values, 0.5);
}

std::vector<PhaseMiss> phase_misses(const std::vector<Phases>& measured, const std::vector<Phases>& simulated) {
  if (measured.size() != simulated.size()) throw std::invalid_argument("phase misses: measured and simulated differ in length");
  const std::vector<std::pair<const char*, double Phases::*>> phases = {
      {"index", &Phases::index}, {"pack", &Phases::pack}, {"comm", &Phases::comm}, {"unpack", &Phases::unpack}};
  std::vector<PhaseMiss> out;
  for (const auto& [name, field] : phases) {
    std::vector<double> ratios, shares;
    for (std::size_t i = 0; i < measured.size(); ++i) {
      const double real = measured[i].*field, model = simulated[i].*field;
      if (real > 0) ratios.push_back(model / real);
      if (measured[i].total > 0) shares.push_back(std::abs(model - real) / measured[i].total);
    }
    out.push_back({name, median(ratios), median(shares), static_cast<int>(ratios.size())});
  }
  return out;
}

std::vector<RankCountMiss> rank_count_misses(const std::vector<Index>& ranks, const std::vector<double>& measured,
                                             const std::vector<double>& simulated) {
  if (ranks.size() != measured.size() || measured.size() != simulated.size()) {
    throw std::invalid_argument("rank count misses: ranks, measured and simulated differ in length");
  }
  std::map<Index, std::vector<std::size_t>> by_ranks;
  for (std::size_t i = 0; i < ranks.size(); ++i) by_ranks[ranks[i]].push_back(i);
  std::vector<RankCountMiss> out;
  for (const auto& [count, cases] : by_ranks) {
    std::vector<double> real, model;
    double log_ratios = 0;
    for (const std::size_t i : cases) {
      real.push_back(measured[i]);
      model.push_back(simulated[i]);
      log_ratios += std::log(simulated[i] / measured[i]);
    }
    const ValidationSummary s = summarise_validation(real, model);
    out.push_back({count, static_cast<int>(cases.size()), s.median, s.p90,
                   std::exp(log_ratios / static_cast<double>(cases.size()))});
  }
  return out;
}

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
