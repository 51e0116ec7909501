// The price fits of `redist calibrate` (calibration/redist/calibration/least_squares.hpp) on synthetic measurements shaped
// as calibrate's: the naive scan's runs count one ElementScanned and two IndexOp per element, the
// table and intersection methods' runs IndexOp, TableEntry, Intersection and RunListed. Known
// prices must come back, exactly from exact times and close from noisy ones, and the scan's cost
// must not move between IndexOp and ElementScanned from one noisy calibration to the next.
#include <gtest/gtest.h>

#include <random>

#include "redist/calibration/least_squares.hpp"

namespace redist::calibration {
namespace {

// kIndexKinds' order: IndexOp, TableEntry, Intersection, ElementScanned, RunListed.
constexpr std::size_t kIndexOp = 0, kScanned = 3;
const std::vector<double> kPrices = {6e-9, 3e-9, 2.5e-8, 1.2e-9, 4e-9};

struct Measurements {
  std::vector<std::vector<double>> counts;
  std::vector<double> seconds;
};

Measurements synthetic(std::mt19937_64& rng, double noise) {
  std::uniform_real_distribution<double> size(1e4, 2e6), jitter(-noise, noise);
  Measurements m;
  for (int pair = 0; pair < 7; ++pair) {
    const double n = size(rng), segments = size(rng) / 50, runs = size(rng) / 20;
    m.counts.push_back({2 * n, 0, 0, n, runs});                                 // naive
    m.counts.push_back({segments, segments / 3, segments / 2, 0, runs});         // PITFALLS
    m.counts.push_back({segments / 4, segments * 2, 0, 0, runs});                // Krr, Prylli
    m.counts.push_back({segments * 3, 0, segments / 5, 0, runs / 2});
  }
  for (const auto& row : m.counts) {
    double t = 0;
    for (std::size_t k = 0; k < row.size(); ++k) t += row[k] * kPrices[k];
    m.seconds.push_back(t * (1 + jitter(rng)));
  }
  return m;
}

TEST(PriceFit, StagedRecoversKnownPricesFromExactTimes) {
  std::mt19937_64 rng(18);
  const Measurements m = synthetic(rng, 0);
  const auto prices = fit_prices_staged(m.counts, m.seconds, {kScanned});
  for (std::size_t k = 0; k < kPrices.size(); ++k) EXPECT_NEAR(prices[k] / kPrices[k], 1, 1e-6) << "kind " << k;
  const auto one_stage = fit_prices(m.counts, m.seconds);
  for (std::size_t k = 0; k < kPrices.size(); ++k) EXPECT_NEAR(one_stage[k] / kPrices[k], 1, 1e-6) << "kind " << k;
}

// Two runs whose time is not their work's (a naive scan twice as long, a listing three times): the
// plain fit spreads them over the prices, the trimmed one leaves them out and finds the prices again.
// Noise alone (5%) leaves nothing out.
TEST(PriceFit, TrimmedLeavesOutRunsItsWorkDoesNotExplain) {
  std::mt19937_64 rng(18);
  Measurements m = synthetic(rng, 0);
  m.seconds[4] *= 2;  // a naive scan
  m.seconds[9] *= 3;  // a PITFALLS listing
  const auto plain = fit_prices_staged(m.counts, m.seconds, {kScanned});
  EXPECT_GT(std::abs(plain[kScanned] / kPrices[kScanned] - 1), 0.1);
  std::vector<std::size_t> left_out;
  const auto trimmed = fit_prices_staged_trimmed(m.counts, m.seconds, {kScanned}, &left_out);
  EXPECT_EQ(left_out, (std::vector<std::size_t>{4, 9}));
  for (std::size_t k = 0; k < kPrices.size(); ++k) EXPECT_NEAR(trimmed[k] / kPrices[k], 1, 1e-6) << "kind " << k;
  std::mt19937_64 noisy(7);
  const Measurements n = synthetic(noisy, 0.05);
  EXPECT_EQ(fit_prices_staged_trimmed(n.counts, n.seconds, {kScanned}, &left_out), fit_prices_staged(n.counts, n.seconds, {kScanned}));
  EXPECT_TRUE(left_out.empty());
}

TEST(PriceFit, StagedKeepsTheScanOnElementScannedUnderNoise) {
  // 5% noise on every time, 20 calibrations: IndexOp is priced from the methods that count it
  // alone, and the naive scan's remaining cost stays on ElementScanned (neither ever 0).
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const Measurements m = synthetic(rng, 0.05);
    const auto prices = fit_prices_staged(m.counts, m.seconds, {kScanned});
    EXPECT_NEAR(prices[kIndexOp] / kPrices[kIndexOp], 1, 0.15) << "seed " << seed;
    // ElementScanned is a tenth of the scan's cost here, so 5% noise moves it much; it stays positive.
    EXPECT_GT(prices[kScanned], 0) << "seed " << seed;
    EXPECT_LT(prices[kScanned], 3 * kPrices[kScanned]) << "seed " << seed;
    // The naive scan's whole cost per element (one scan, two index operations) within 10%.
    const double per_element = prices[kScanned] + 2 * prices[kIndexOp];
    EXPECT_NEAR(per_element / (kPrices[kScanned] + 2 * kPrices[kIndexOp]), 1, 0.1) << "seed " << seed;
  }
}

TEST(PriceFit, OffsetsAreWorkAlreadyPriced) {
  // seconds = 1e-6 + 3e-9 · count: with the 1e-6 given as an offset, the price is 3e-9.
  const std::vector<std::vector<double>> counts = {{100}, {1000}, {5000}};
  const std::vector<double> seconds = {1e-6 + 3e-7, 1e-6 + 3e-6, 1e-6 + 1.5e-5};
  const auto prices = fit_prices(counts, seconds, {1e-6, 1e-6, 1e-6});
  EXPECT_NEAR(prices[0], 3e-9, 1e-15);
}

}  // namespace
}  // namespace redist::calibration

// Cross-validation (leave one group out) and the rule that drops a value fitting it does not help
// on held-out cells. A synthetic set of 3 groups of 10 cells, residual_i(x) = (x0 − 0.5)·u_i +
// x1·z_i + e_i: x0 is a real value (0.5; its prior 0 is far off), x1 only fits the noise e: its
// covariate z follows e in group 0 and −e in the others, so a fit on two groups that include the
// others cancels their noise and doubles group 0's.
namespace redist::calibration {
namespace {

struct Synthetic {
  std::vector<double> u, z, e;
  std::vector<int> group;
  Synthetic() {
    for (int i = 0; i < 30; ++i) {
      const int g = i / 10;
      const double noise = 0.1 * std::sin(1.7 * i + 0.3);
      u.push_back(1 + (i % 10) / 9.0);
      e.push_back(noise);
      z.push_back(g == 0 ? noise : -noise);
      group.push_back(g);
    }
  }
  std::vector<double> operator()(const std::vector<double>& x) const {
    std::vector<double> r;
    for (std::size_t i = 0; i < u.size(); ++i) r.push_back((x[0] - 0.5) * u[i] + x[1] * z[i] + e[i]);
    return r;
  }
};

const std::vector<double> kPrior = {0, 0}, kLower = {-5, -5}, kUpper = {5, 5};

double cost(const std::vector<double>& r) {
  double sum = 0;
  for (const double v : r) sum += v * v;
  return sum;
}

TEST(CrossValidation, HeldOutCellsAreScoredByTheFitThatDidNotSeeThem) {
  const Synthetic data;
  // Nothing free: every cell keeps its residual at the prior.
  const CrossValidation none = cross_validate(std::cref(data), data.group, kPrior, kPrior, kLower, kUpper, {false, false}, {});
  EXPECT_EQ(none.held_out, data(kPrior));
  // x0 alone: each fold recovers 0.5 from the other groups' cells (the noise is small and balanced).
  const CrossValidation x0 = cross_validate(std::cref(data), data.group, kPrior, kPrior, kLower, kUpper, {true, false}, {});
  EXPECT_LT(x0.cost, 0.05 * none.cost);
  // The fit on every cell lowers the train cost with x1, though x1 does worse on held-out cells.
  const std::vector<bool> every(data.u.size(), true);
  const auto both_fit = fit_on(std::cref(data), every, kPrior, kPrior, kLower, kUpper, {true, true}, {});
  const auto x0_fit = fit_on(std::cref(data), every, kPrior, kPrior, kLower, kUpper, {true, false}, {});
  EXPECT_LT(cost(data(both_fit)), cost(data(x0_fit)));
  const CrossValidation both = cross_validate(std::cref(data), data.group, kPrior, kPrior, kLower, kUpper, {true, true}, {});
  EXPECT_GT(both.cost, x0.cost);
  EXPECT_THROW(cross_validate(std::cref(data), std::vector<int>(30, 0), kPrior, kPrior, kLower, kUpper, {true, true}, {}),
               std::invalid_argument);
}

TEST(CrossValidation, AValueThatOnlyOverfitsIsDroppedAndARealOneKept) {
  const Synthetic data;
  int candidates = 0;
  const Selection s = select_by_cross_validation(std::cref(data), data.group, kPrior, kPrior, kLower, kUpper,
                                                 [&](const std::vector<bool>&, const CrossValidation&) { ++candidates; });
  EXPECT_EQ(s.kept, (std::vector<bool>{true, false}));
  EXPECT_EQ(s.dropped, (std::vector<std::size_t>{1}));
  EXPECT_LT(s.selected.cost, s.all.cost);
  // Every value, then each one held; then, x1 gone, x0 held: x0 earns its place.
  EXPECT_EQ(candidates, 4);
  EXPECT_LT(median_relative_error(s.selected.held_out), median_relative_error(s.all.held_out));
}

// The first-order model at a point reproduces residuals linear in x, and the folds fitted on it,
// rescored by the residuals themselves, give the same selection and errors as the exact ones.
TEST(CrossValidation, ALinearisedModelSelectsAsTheExactResidualsDo) {
  const Synthetic data;
  int calls = 0;
  const Residuals counted = [&](const std::vector<double>& x) {
    ++calls;
    return data(x);
  };
  const Residuals model = linearised(counted, {0.4, 0.2}, kUpper);
  EXPECT_EQ(calls, 3);  // r(x*) and one step per value
  const auto far = model({-2, 3});
  const auto truth = data({-2, 3});
  for (std::size_t i = 0; i < far.size(); ++i) EXPECT_NEAR(far[i], truth[i], 1e-9);
  Selection s = select_by_cross_validation(model, data.group, kPrior, kPrior, kLower, kUpper, {});
  EXPECT_EQ(calls, 3);  // the folds are fitted in memory
  EXPECT_EQ(s.kept, (std::vector<bool>{true, false}));
  const CrossValidation exact = cross_validate(std::cref(data), data.group, kPrior, kPrior, kLower, kUpper, {true, false}, {});
  const CrossValidation scored = rescored(counted, data.group, s.selected);
  EXPECT_EQ(calls, 6);  // one replay per group
  EXPECT_NEAR(scored.cost, exact.cost, 1e-3 * exact.cost);
}

TEST(CrossValidation, ValuesThatEachHelpAreAllKept) {
  // The noise-fitting covariate replaced by a real one: residual (x0 − 0.5)·u + (x1 + 0.3)·w.
  Synthetic data;
  for (std::size_t i = 0; i < data.z.size(); ++i) data.z[i] = std::cos(0.9 * static_cast<double>(i));
  const auto model = [&](const std::vector<double>& x) {
    std::vector<double> r;
    for (std::size_t i = 0; i < data.u.size(); ++i) r.push_back((x[0] - 0.5) * data.u[i] + (x[1] + 0.3) * data.z[i] + 0.01 * data.e[i]);
    return r;
  };
  const Selection s = select_by_cross_validation(model, data.group, kPrior, kPrior, kLower, kUpper, {});
  EXPECT_EQ(s.kept, (std::vector<bool>{true, true}));
  EXPECT_TRUE(s.dropped.empty());
}

}  // namespace
}  // namespace redist::calibration
