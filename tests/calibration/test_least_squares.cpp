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
