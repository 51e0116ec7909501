// Paper 004, sections 4.3-4.5: communication schedules (caterpillar, Walker-Otto, stepwise, greedy),
// reproduced against the published step and cost tables and checked on many random problems.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <numeric>
#include <random>

#include "paper_schedule_table.hpp"
#include "sanitizer_share.hpp"
#include "redist/comm_grid/classes.hpp"
#include "redist/comm_grid/comm_grid.hpp"
#include "redist/schedule/caterpillar.hpp"
#include "redist/schedule/check_schedule.hpp"
#include "redist/schedule/matching_schedule.hpp"
#include "redist/schedule/max_weight_matching.hpp"
#include "redist/schedule/strategy.hpp"
#include "redist/schedule/walker_otto.hpp"

namespace redist {
namespace {

std::string data_path(const std::string& table) { return std::string(REDIST_TEST_DATA) + "/paper004/" + table + ".txt"; }

std::vector<Index> step_costs(const Schedule& schedule) {
  std::vector<Index> costs;
  for (const auto& step : schedule.steps) costs.push_back(step.cost());
  return costs;
}

Index max_degree(const LengthMatrix& lengths) {
  Index best = 0;
  for (Index p = 0; p < lengths.P(); ++p) {
    Index n = 0;
    for (Index q = 0; q < lengths.Q(); ++q) n += lengths.at(p, q) != 0;
    best = std::max(best, n);
  }
  for (Index q = 0; q < lengths.Q(); ++q) {
    Index n = 0;
    for (Index p = 0; p < lengths.P(); ++p) n += lengths.at(p, q) != 0;
    best = std::max(best, n);
  }
  return best;
}

void expect_valid(const Schedule& schedule, const LengthMatrix& lengths, const std::string& what) {
  const auto violation = schedule_violation(schedule, lengths);
  EXPECT_FALSE(violation.has_value()) << what << ": " << violation.value_or("");
}

// ---------------------------------------------------------------------------------------------
// The published schedules themselves: valid for the closed-form grid, and costed as published.

struct PublishedCase {
  const char* steps;
  const char* costs;
  Redistribution redist;
};

class PublishedScheduleTest : public ::testing::TestWithParam<PublishedCase> {};

TEST_P(PublishedScheduleTest, IsValidAndCostsAsPublished) {
  const auto& c = GetParam();
  const LengthMatrix lengths(comm_grid(c.redist));
  const Schedule published = test::read_published_schedule(data_path(c.steps), lengths);
  expect_valid(published, lengths, c.steps);
  const auto costs = test::read_published_costs(data_path(c.costs));
  EXPECT_EQ(step_costs(published), costs.costs) << c.steps;
  EXPECT_EQ(published.total_cost(), costs.total) << c.steps;
}

INSTANTIATE_TEST_SUITE_P(Paper004, PublishedScheduleTest,
                         ::testing::Values(PublishedCase{"table02", "table03", {16, 3, 16, 5}},
                                           PublishedCase{"table05", "table06", {16, 7, 16, 11}},
                                           PublishedCase{"table08", "table09", {15, 3, 15, 5}},
                                           PublishedCase{"table11", "table12", {12, 4, 8, 3}},
                                           PublishedCase{"table15", "table16", {15, 2, 6, 3}},
                                           PublishedCase{"table17", "table18", {15, 2, 6, 3}}));

// ---------------------------------------------------------------------------------------------
// Our strategies on the paper's examples.

Schedule schedule_for(Strategy strategy, const Redistribution& redist) {
  return make_schedule(strategy, comm_grid(redist));
}

TEST(PaperSchedules, Example1StepwiseMatchesTables2And3) {
  const Redistribution redist{16, 3, 16, 5};
  const Schedule s = schedule_for(Strategy::Stepwise, redist);
  expect_valid(s, LengthMatrix(comm_grid(redist)), "stepwise");
  EXPECT_EQ(s.step_count(), 7);
  EXPECT_EQ(s.total_cost(), 15);
  EXPECT_EQ(step_costs(s), test::read_published_costs(data_path("table03")).costs);
  // "7 steps of 16 disjoint processor pairs exchanging messages of the same length".
  for (const auto& step : s.steps) {
    EXPECT_EQ(step.messages.size(), 16u);
    for (const auto& m : step.messages) EXPECT_EQ(m.length, step.cost());
  }
}

TEST(PaperSchedules, Example2StepwiseMatchesTables5And6) {
  const Redistribution redist{16, 7, 16, 11};
  const Schedule s = schedule_for(Strategy::Stepwise, redist);
  expect_valid(s, LengthMatrix(comm_grid(redist)), "stepwise");
  EXPECT_EQ(s.step_count(), 16);
  EXPECT_EQ(s.total_cost(), 77);
  EXPECT_EQ(step_costs(s), test::read_published_costs(data_path("table06")).costs);
  for (const auto& step : s.steps) {
    for (const auto& m : step.messages) EXPECT_EQ(m.length, step.cost());
  }
}

TEST(PaperSchedules, Example3StepwiseMatchesTables8And9) {
  const Redistribution redist{15, 3, 15, 5};
  const Schedule s = schedule_for(Strategy::Stepwise, redist);
  expect_valid(s, LengthMatrix(comm_grid(redist)), "stepwise");
  EXPECT_EQ(s.step_count(), 10);
  EXPECT_EQ(s.total_cost(), 26);
}

TEST(PaperSchedules, Example4StepwiseMatchesTables11And12) {
  const Redistribution redist{12, 4, 8, 3};
  const Schedule s = schedule_for(Strategy::Stepwise, redist);
  expect_valid(s, LengthMatrix(comm_grid(redist)), "stepwise");
  EXPECT_EQ(s.step_count(), 4);
  EXPECT_EQ(s.total_cost(), 8);
}

TEST(PaperSchedules, Example5StepwiseAtMostTables15And16) {
  const Redistribution redist{15, 2, 6, 3};
  const Schedule s = schedule_for(Strategy::Stepwise, redist);
  expect_valid(s, LengthMatrix(comm_grid(redist)), "stepwise");
  EXPECT_EQ(s.step_count(), 10);
  EXPECT_LE(s.total_cost(), 20);
}

TEST(PaperSchedules, Example5GreedyAtMostTables17And18) {
  const Redistribution redist{15, 2, 6, 3};
  const Schedule s = schedule_for(Strategy::Greedy, redist);
  expect_valid(s, LengthMatrix(comm_grid(redist)), "greedy");
  EXPECT_LE(s.total_cost(), 18);
  EXPECT_GE(s.step_count(), 10);  // never fewer than the maximum degree
}

TEST(PaperSchedules, GreedyOnFigure4sRedistributionTakesTheOptimalStepCount) {
  // Paper 004, Figure 4: CYCLIC(4) on 15 -> CYCLIC(3) on 6. Every pair exchanges (max degree 15);
  // greedy's heaviest first steps must not leave a processor with more messages than steps.
  const Redistribution redist{15, 4, 6, 3};
  const LengthMatrix lengths(comm_grid(redist));
  const Schedule greedy = schedule_for(Strategy::Greedy, redist);
  expect_valid(greedy, lengths, "greedy");
  EXPECT_EQ(greedy.step_count(), 15);
  EXPECT_LT(greedy.total_cost(), schedule_for(Strategy::Caterpillar, redist).total_cost());
}

TEST(PaperSchedules, CaterpillarMatchesTable19) {
  const Redistribution redist{12, 4, 8, 3};
  const Schedule s = schedule_for(Strategy::Caterpillar, redist);
  expect_valid(s, LengthMatrix(comm_grid(redist)), "caterpillar");
  const auto published = test::read_published_costs(data_path("table19"));
  EXPECT_EQ(s.step_count(), 12);
  EXPECT_EQ(step_costs(s), published.costs);
  EXPECT_EQ(s.total_cost(), published.total);
  EXPECT_EQ(published.total, 18);
}

// Paper 004's program (§3.2: the total exchange makes "no attempt [...] to exploit the fact that
// some processor pairs may not need to communicate"): each step with data pairs every source with
// its ring partner, empty messages included; table 19's empty steps stay empty, costs unchanged.
TEST(PaperSchedules, CaterpillarWithIdlePairsKeepsTable19sCosts) {
  const Redistribution redist{12, 4, 8, 3};
  const LengthMatrix lengths(comm_grid(redist));
  const Schedule plain = caterpillar_schedule(lengths);
  const Schedule idle = caterpillar_schedule(lengths, IdlePairs::ExchangeEmpty);
  EXPECT_EQ(step_costs(idle), step_costs(plain));
  for (std::size_t k = 0; k < idle.steps.size(); ++k) {
    SCOPED_TRACE(k);
    const auto& messages = idle.steps[k].messages;
    if (plain.steps[k].messages.empty()) {
      EXPECT_TRUE(messages.empty());
      continue;
    }
    ASSERT_EQ(messages.size(), 8u);  // the 8 sources whose ring partner (p - k) mod 12 is a destination
    for (const auto& m : messages) {
      EXPECT_EQ(m.dst, floor_mod(m.src - static_cast<Index>(k), 12));
      EXPECT_EQ(m.length, lengths.at(m.src, m.dst));
    }
  }
  EXPECT_EQ(idle.message_count(), 6 * 8);
  EXPECT_EQ(plain.message_count(), 24);
}

// §5.2: "The caterpillar algorithm requires 16 steps, too, but at each step at least one processor
// sends a message of length 7, hence a total cost of 112."
TEST(PaperSchedules, CaterpillarOfExample2Costs112) {
  const Schedule s = schedule_for(Strategy::Caterpillar, {16, 7, 16, 11});
  EXPECT_EQ(s.step_count(), 16);
  EXPECT_EQ(s.total_cost(), 112);
}

// ---------------------------------------------------------------------------------------------
// Walker and Otto: r -> K·r on P = Q processors in K steps of P messages of length r.

TEST(WalkerOtto, ValidInKStepsWheneverApplicable) {
  int cases = 0;
  for (Index P = 1; P <= 32; ++P) {
    for (Index r = 1; r <= 20; ++r) {
      for (Index K = 1; K * r <= 20 && K <= P; ++K) {
        for (const Redistribution redist : {Redistribution{P, r, P, K * r}, Redistribution{P, K * r, P, r}}) {
          const Schedule s = walker_otto_schedule(redist);
          const LengthMatrix lengths(comm_grid(redist));
          ASSERT_FALSE(schedule_violation(s, lengths).has_value())
              << "P=" << P << " r=" << redist.r << " s=" << redist.s << ": " << *schedule_violation(s, lengths);
          ASSERT_EQ(s.step_count(), K);
          for (const auto& step : s.steps) ASSERT_EQ(static_cast<Index>(step.messages.size()), P);
          ASSERT_EQ(s.total_cost(), K * r);
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 1000);
}

TEST(WalkerOtto, RefusesOtherProblemsWithAClearReason) {
  const auto message = [](const Redistribution& redist) {
    try {
      walker_otto_schedule(redist);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({15, 2, 6, 3}).find("P = Q"), std::string::npos);
  EXPECT_NE(message({16, 2, 16, 3}).find("s = K*r"), std::string::npos);
  EXPECT_NE(message({4, 1, 4, 5}).find("K = 5 <= P"), std::string::npos);
  EXPECT_THROW(make_schedule(Strategy::WalkerOtto, LengthMatrix(2, 2)), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Every strategy on many random problems.

TEST(RandomSchedules, AllValidStepwiseOptimalAndGreedyCompared) {
  std::mt19937_64 rng(2024);
  std::uniform_int_distribution<Index> procs(1, 32), block(1, 20);
  int cases = 0, unequal_grids = 0, common_factor = 0, greedy_not_worse = 0, greedy_better = 0;
  Index greedy_extra_steps = 0;
  const int sample = test::sampled_cases(1000);
  while (cases < sample) {
    const Redistribution redist{procs(rng), block(rng), procs(rng), block(rng)};
    const CommGrid grid = comm_grid(redist);
    const LengthMatrix lengths(grid);
    const std::string name = "P=" + std::to_string(redist.P) + " r=" + std::to_string(redist.r) +
                             " Q=" + std::to_string(redist.Q) + " s=" + std::to_string(redist.s);
    const Schedule caterpillar = make_schedule(Strategy::Caterpillar, grid);
    const Schedule stepwise = make_schedule(Strategy::Stepwise, grid);
    const Schedule greedy = make_schedule(Strategy::Greedy, grid);
    expect_valid(caterpillar, lengths, "caterpillar " + name);
    expect_valid(stepwise, lengths, "stepwise " + name);
    expect_valid(greedy, lengths, "greedy " + name);
    ASSERT_EQ(caterpillar.step_count(), std::max(redist.P, redist.Q)) << name;
    ASSERT_EQ(stepwise.step_count(), max_degree(lengths)) << name;
    // Theorem 1 / Proposition 5: the optimum is max(m_R, m_C).
    const auto counts = max_message_counts(redist);
    ASSERT_EQ(stepwise.step_count(), std::max(counts.max_per_row, counts.max_per_column)) << name;
    ASSERT_GE(greedy.step_count(), stepwise.step_count()) << name;

    greedy_not_worse += greedy.total_cost() <= stepwise.total_cost();
    greedy_better += greedy.total_cost() < stepwise.total_cost();
    greedy_extra_steps += greedy.step_count() - stepwise.step_count();
    unequal_grids += redist.P != redist.Q;
    common_factor += std::gcd(redist.r, redist.s) > 1;
    ++cases;
  }
  EXPECT_GT(unequal_grids, sample / 2);
  EXPECT_GT(common_factor, sample / 5);
  // Greedy prefers, among its heaviest matchings, those keeping the busiest processors busy: with
  // ties left to edge order it took 3.7 extra steps on average here, and a total cost above
  // stepwise's in 76% of cases (0.07 and 2.5% with the preference).
  EXPECT_LT(static_cast<double>(greedy_extra_steps) / cases, 0.2);
  EXPECT_GT(greedy_not_worse, sample * 9 / 10);
  std::cout << "[ statistic ] over " << cases << " random (P, Q, r, s): greedy TC <= stepwise TC in "
            << 100.0 * greedy_not_worse / cases << "% of cases (strictly lower in " << 100.0 * greedy_better / cases
            << "%), greedy uses " << static_cast<double>(greedy_extra_steps) / cases << " extra steps on average\n";
}

// ---------------------------------------------------------------------------------------------
// Each matching step against a brute-force optimum, on small random length matrices.

// Maximum weight of a matching of `edges` covering the flagged vertices (-1 when none does), by
// dynamic programming over the sources in order and the set of destinations used.
Index brute_force_best(const LengthMatrix& lengths, const std::vector<bool>& cover_left,
                       const std::vector<bool>& cover_right) {
  const Index P = lengths.P(), Q = lengths.Q();
  const std::size_t masks = std::size_t{1} << Q;
  std::size_t required = 0;
  for (Index q = 0; q < Q; ++q) required |= cover_right[static_cast<std::size_t>(q)] ? std::size_t{1} << q : 0;
  std::vector<Index> best(masks, -1), next(masks);
  best[0] = 0;
  for (Index p = 0; p < P; ++p) {
    std::fill(next.begin(), next.end(), -1);
    for (std::size_t mask = 0; mask < masks; ++mask) {
      if (best[mask] < 0) continue;
      if (!cover_left[static_cast<std::size_t>(p)]) next[mask] = std::max(next[mask], best[mask]);
      for (Index q = 0; q < Q; ++q) {
        const std::size_t bit = std::size_t{1} << q;
        if (lengths.at(p, q) == 0 || (mask & bit) != 0) continue;
        next[mask | bit] = std::max(next[mask | bit], best[mask] + lengths.at(p, q));
      }
    }
    best.swap(next);
  }
  Index answer = -1;
  for (std::size_t mask = 0; mask < masks; ++mask) {
    if ((mask & required) == required) answer = std::max(answer, best[mask]);
  }
  return answer;
}

struct CoverFlags {
  std::vector<bool> left, right;
};

// The processors of maximum degree (stepwise must keep them busy), or none (greedy).
CoverFlags cover_flags(const LengthMatrix& pending, bool max_degree_only) {
  CoverFlags flags{std::vector<bool>(static_cast<std::size_t>(pending.P())),
                   std::vector<bool>(static_cast<std::size_t>(pending.Q()))};
  if (!max_degree_only) return flags;
  const Index top = max_degree(pending);
  for (Index p = 0; p < pending.P(); ++p) {
    Index n = 0;
    for (Index q = 0; q < pending.Q(); ++q) n += pending.at(p, q) != 0;
    flags.left[static_cast<std::size_t>(p)] = n == top;
  }
  for (Index q = 0; q < pending.Q(); ++q) {
    Index n = 0;
    for (Index p = 0; p < pending.P(); ++p) n += pending.at(p, q) != 0;
    flags.right[static_cast<std::size_t>(q)] = n == top;
  }
  return flags;
}

// Replays a schedule step by step: each step covers the required processors and weighs as much as
// the brute-force optimum.
void expect_steps_optimal(const Schedule& schedule, LengthMatrix pending, bool cover_max_degree) {
  for (const auto& step : schedule.steps) {
    const CoverFlags need = cover_flags(pending, cover_max_degree);
    CoverFlags idle = need;
    Index weight = 0;
    for (const auto& m : step.messages) {
      weight += m.length;
      idle.left[static_cast<std::size_t>(m.src)] = idle.right[static_cast<std::size_t>(m.dst)] = false;
    }
    ASSERT_TRUE(std::find(idle.left.begin(), idle.left.end(), true) == idle.left.end()) << "a source is idle";
    ASSERT_TRUE(std::find(idle.right.begin(), idle.right.end(), true) == idle.right.end()) << "a destination is idle";
    ASSERT_EQ(weight, brute_force_best(pending, need.left, need.right));
    for (const auto& m : step.messages) pending.set(m.src, m.dst, 0);
  }
}

TEST(MatchingSteps, EachStepIsAnOptimalMatching) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<Index> side(1, 7), length(1, 4);
  std::uniform_real_distribution<double> coin(0, 1);
  for (int n = 0; n < 300; ++n) {
    LengthMatrix lengths(side(rng), side(rng));
    const double density = coin(rng);
    for (Index p = 0; p < lengths.P(); ++p) {
      for (Index q = 0; q < lengths.Q(); ++q) {
        if (coin(rng) < density) lengths.set(p, q, length(rng));
      }
    }
    const Schedule stepwise = stepwise_schedule(lengths);
    const Schedule greedy = greedy_schedule(lengths);
    expect_valid(stepwise, lengths, "stepwise");
    expect_valid(greedy, lengths, "greedy");
    ASSERT_EQ(stepwise.step_count(), max_degree(lengths));
    expect_steps_optimal(stepwise, lengths, true);
    expect_steps_optimal(greedy, lengths, false);
  }
}

TEST(MatchingSteps, SameInputSameSchedule) {
  const CommGrid grid = comm_grid({15, 3, 15, 5});
  for (Strategy strategy : {Strategy::Stepwise, Strategy::Greedy}) {
    const Schedule a = make_schedule(strategy, grid), b = make_schedule(strategy, grid);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t k = 0; k < a.steps.size(); ++k) EXPECT_EQ(a.steps[k].messages, b.steps[k].messages);
  }
}

TEST(MatchingSteps, MatcherRejectsBadInput) {
  MaxWeightMatcher matcher(2, 2, 5);
  const std::vector<bool> none(2, false), all(2, true);
  const std::vector<BipartiteEdge> out_of_range{{0, 2, 1}};
  EXPECT_THROW(matcher.match(out_of_range, none, none), std::out_of_range);
  const std::vector<BipartiteEdge> too_heavy{{0, 1, 6}};
  EXPECT_THROW(matcher.match(too_heavy, none, none), std::invalid_argument);
  // Both sources must send, but they share their only destination.
  const std::vector<BipartiteEdge> star{{0, 0, 1}, {1, 0, 1}};
  EXPECT_THROW(matcher.match(star, all, none), std::invalid_argument);
  EXPECT_THROW(MaxWeightMatcher(4, 4, Index{1} << 60), OverflowError);
}

// ---------------------------------------------------------------------------------------------
// Strategy names.

TEST(Strategies, NamesRoundTrip) {
  for (Strategy strategy : all_strategies()) EXPECT_EQ(strategy_from_name(name_of(strategy)), strategy);
  try {
    strategy_from_name("fastest");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown strategy 'fastest' (known: caterpillar, walker-otto, stepwise, greedy)");
  }
}

}  // namespace
}  // namespace redist
