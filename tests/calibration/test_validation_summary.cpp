// The figures `redist validate` reports: median and 90th percentile of the relative error, the
// optimistic cases, the worst five.
#include <gtest/gtest.h>

#include <cmath>

#include "redist/calibration/validation_summary.hpp"

namespace redist::calibration {
namespace {

TEST(ValidationSummary, MedianPercentileOptimisticAndWorst) {
  // Relative errors 0.5, 0.1, 0.2, 1.0, 0.3, 0.0, 0.4, 0.6, 0.7, 0.8, 0.9 (11 cases).
  const std::vector<double> measured(11, 1.0);
  const std::vector<double> simulated = {0.5, 1.1, 0.8, 2.0, 1.3, 1.0, 1.4, 0.4, 1.7, 0.2, 1.9};
  const auto s = summarise_validation(measured, simulated);
  EXPECT_NEAR(s.median, 0.5, 1e-12);
  EXPECT_NEAR(s.p90, 0.9, 1e-12);  // rank 0.9·10 = 9 of the sorted errors 0, 0.1, ..., 1.0
  EXPECT_EQ(s.optimistic, 4);      // 0.5, 0.8, 0.4, 0.2
  EXPECT_EQ(s.worst, (std::vector<std::size_t>{3, 10, 9, 8, 7}));
}

TEST(ValidationSummary, EvenCountsAverageTheMiddleAndFewCasesListThemAll) {
  const auto s = summarise_validation({2.0, 4.0}, {3.0, 4.0});  // errors 0.5 and 0
  EXPECT_NEAR(s.median, 0.25, 1e-12);
  EXPECT_NEAR(s.p90, 0.45, 1e-12);
  EXPECT_EQ(s.optimistic, 0);
  EXPECT_EQ(s.worst, (std::vector<std::size_t>{0, 1}));
  EXPECT_THROW(summarise_validation({}, {}), std::invalid_argument);
  EXPECT_THROW(summarise_validation({1.0}, {1.0, 2.0}), std::invalid_argument);
}

// Spreads 0.5, 0, 1.0 (slowest pass over fastest, minus 1, whatever the order of the passes).
TEST(ValidationSummary, RoundSpreadIsTheSlowestPassOverTheFastest) {
  const auto spread = summarise_round_spread({{2.0, 3.0, 2.5}, {1.0, 1.0}, {4.0, 2.0}});
  EXPECT_NEAR(spread.median, 0.5, 1e-12);
  EXPECT_NEAR(spread.p90, 0.9, 1e-12);  // rank 0.9·2 = 1.8: between 0.5 and 1.0
  EXPECT_THROW(summarise_round_spread({}), std::invalid_argument);
  EXPECT_THROW(summarise_round_spread({{1.0}}), std::invalid_argument);
  EXPECT_THROW(summarise_round_spread({{0.0, 1.0}}), std::invalid_argument);
}

// Where the misses lie. Three cases: pack simulated twice as long in every case, comm exact, index
// measured only in two; the totals' errors by rank count.
TEST(ValidationSummary, MissesByPhaseAndByRankCount) {
  const auto phases = [](double index, double pack, double comm, double unpack) {
    Phases p;
    p.index = index, p.pack = pack, p.comm = comm, p.unpack = unpack;
    p.total = index + pack + comm + unpack;
    return p;
  };
  const std::vector<Phases> measured = {phases(0, 1, 2, 1), phases(1, 2, 1, 0), phases(2, 1, 1, 0)};
  const std::vector<Phases> simulated = {phases(0, 2, 2, 1), phases(3, 4, 1, 0), phases(1, 2, 1, 0)};
  const auto misses = phase_misses(measured, simulated);
  ASSERT_EQ(misses.size(), 4u);
  EXPECT_EQ(misses[0].phase, "index");
  EXPECT_EQ(misses[0].cases, 2);
  EXPECT_NEAR(misses[0].median_ratio, (3.0 + 0.5) / 2, 1e-12);  // 3 and 0.5
  EXPECT_EQ(misses[1].phase, "pack");
  EXPECT_NEAR(misses[1].median_ratio, 2, 1e-12);
  EXPECT_NEAR(misses[1].median_share, 0.25, 1e-12);  // 1/4, 2/4, 1/4
  EXPECT_NEAR(misses[2].median_ratio, 1, 1e-12);
  EXPECT_EQ(misses[2].median_share, 0);
  EXPECT_EQ(misses[3].cases, 1);

  const auto by_ranks = rank_count_misses({4, 2, 4}, {1.0, 2.0, 4.0}, {2.0, 2.0, 1.0});
  ASSERT_EQ(by_ranks.size(), 2u);
  EXPECT_EQ(by_ranks[0].ranks, 2);
  EXPECT_EQ(by_ranks[0].cases, 1);
  EXPECT_EQ(by_ranks[0].median, 0);
  EXPECT_NEAR(by_ranks[0].geometric_mean_ratio, 1, 1e-12);
  EXPECT_EQ(by_ranks[1].ranks, 4);
  EXPECT_NEAR(by_ranks[1].median, (1.0 + 0.75) / 2, 1e-12);  // errors 1 and 0.75
  EXPECT_NEAR(by_ranks[1].geometric_mean_ratio, std::sqrt(0.5), 1e-12);  // ratios 2 and 1/4
  EXPECT_THROW(rank_count_misses({1}, {1.0, 2.0}, {1.0, 2.0}), std::invalid_argument);
}

}  // namespace
}  // namespace redist::calibration
