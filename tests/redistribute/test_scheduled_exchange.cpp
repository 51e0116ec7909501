// The scheduled exchange moves real data correctly for every strategy and layout, one message per
// step and direction, in the order of the schedule.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/verified_run.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

struct LayoutCase {
  std::string name;
  Layout source;
  Layout dest;
  RankMap ranks;
};

std::vector<LayoutCase> layout_cases() {
  const auto multi = [](Index rows, Index cols, Index br, Index pr, Index bc, Index pc, StorageOrder order) {
    return MultiDimLayout({DimMapping::distributed(BlockCyclic(rows, br, pr)),
                           DimMapping::distributed(BlockCyclic(cols, bc, pc))},
                          order);
  };
  return {
      {"example 4, shared ranks", BlockCyclic(480, 4, 12), BlockCyclic(480, 3, 8), RankMap::shared()},
      {"example 5, disjoint ranks", BlockCyclic(270, 2, 15), BlockCyclic(270, 3, 6), RankMap::disjoint(15)},
      {"overlapping ranks", BlockCyclic(300, 3, 5), BlockCyclic(300, 5, 5), RankMap{0, 2}},
      {"array shorter than a slice", BlockCyclic(37, 3, 4), BlockCyclic(37, 2, 6), RankMap::shared()},
      {"block 0 elsewhere", BlockCyclic(200, 3, 4, 2), BlockCyclic(200, 2, 5, 3), RankMap::shared()},
      {"2-D grids", multi(12, 10, 2, 2, 3, 3, StorageOrder::RowMajor), multi(12, 10, 3, 3, 1, 2, StorageOrder::ColumnMajor),
       RankMap::shared()},
      {"two-level", TwoLevelLayout(100, 3, 1, 4, 5), BlockCyclic(100, 7, 3), RankMap::disjoint(5)},
  };
}

// Runs one verified redistribution on as many threads as the layouts need; returns the world.
std::unique_ptr<test::ThreadWorld> run_verified(const LayoutCase& c, const std::string& schedule, Index* sent = nullptr) {
  const Rank size = static_cast<Rank>(c.ranks.ranks_needed(c.source.processors(), c.dest.processors()));
  auto world = std::make_unique<test::ThreadWorld>(size);
  std::atomic<Index> misplaced = 0, messages = 0;
  world->run([&](Transport& transport) {
    const auto result = redistribute_and_verify(transport, c.source, c.dest,
                                                {.elem_bytes = 12, .indexing = "naive", .schedule = schedule, .ranks = c.ranks});
    misplaced += result.misplaced;
    messages += result.report.messages_sent;
  });
  EXPECT_EQ(misplaced.load(), 0) << c.name << " with " << schedule;
  if (sent != nullptr) *sent = messages.load();
  return world;
}

// The messages to other ranks that `me` sends, in schedule order.
std::vector<Rank> scheduled_sends(const Schedule& schedule, const LayoutCase& c, Rank me) {
  std::vector<Rank> order;
  const auto p = c.ranks.source_of(me, schedule.P);
  if (!p) return order;
  for (const auto& step : schedule.steps) {
    for (const auto& m : step.messages) {
      if (m.src == *p && c.ranks.dest_rank(m.dst) != me) order.push_back(c.ranks.dest_rank(m.dst));
    }
  }
  return order;
}

class ScheduledExchangeTest : public ::testing::TestWithParam<std::pair<Strategy, std::size_t>> {};

TEST_P(ScheduledExchangeTest, MovesEveryElementOneMessageAtATime) {
  const auto [kind, index] = GetParam();
  const LayoutCase c = layout_cases()[index];
  Index async_messages = 0, scheduled_messages = 0;
  run_verified(c, "async", &async_messages);
  const auto world = run_verified(c, std::string(name_of(kind)), &scheduled_messages);
  EXPECT_EQ(scheduled_messages, async_messages) << c.name;

  const auto schedule = layout_schedule(kind, c.source, c.dest, c.ranks);
  for (Rank r = 0; r < static_cast<Rank>(c.ranks.ranks_needed(c.source.processors(), c.dest.processors())); ++r) {
    const auto& log = world->log(r);
    EXPECT_LE(log.max_sends_in_flight, 1) << c.name << ", rank " << r;
    EXPECT_LE(log.max_receives_in_flight, 1) << c.name << ", rank " << r;
    // Scheduled pairs without data (array shorter than a slice) are skipped: compare as subsequence.
    const auto expected = scheduled_sends(*schedule, c, r);
    std::size_t at = 0;
    for (Rank to : log.send_order) {
      while (at < expected.size() && expected[at] != to) ++at;
      ASSERT_LT(at, expected.size()) << c.name << ", rank " << r << " sent to " << to << " out of order";
      ++at;
    }
  }
}

std::vector<std::pair<Strategy, std::size_t>> all_combinations() {
  std::vector<std::pair<Strategy, std::size_t>> out;
  for (Strategy kind : {Strategy::Caterpillar, Strategy::Stepwise, Strategy::Greedy}) {
    for (std::size_t k = 0; k < layout_cases().size(); ++k) out.emplace_back(kind, k);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, ScheduledExchangeTest, ::testing::ValuesIn(all_combinations()));

// The in-flight counts do see a burst: the async exchange posts all its sends at once.
TEST(ScheduledExchange, AsyncIsNotStepwiseByContrast) {
  const auto world = run_verified(layout_cases()[0], "async");
  int most = 0;
  for (Rank r = 0; r < 12; ++r) most = std::max(most, world->log(r).max_sends_in_flight);
  EXPECT_GT(most, 1);
}

TEST(WalkerOttoExchange, MovesEveryElementInKSteps) {
  for (const RankMap& ranks : {RankMap::shared(), RankMap::disjoint(6)}) {
    const LayoutCase up{"r -> 3r", BlockCyclic(360, 2, 6), BlockCyclic(360, 6, 6), ranks};
    const LayoutCase down{"4r -> r, block 0 elsewhere", BlockCyclic(350, 8, 6, 1), BlockCyclic(350, 2, 6, 4), ranks};
    for (const auto& c : {up, down}) {
      const auto world = run_verified(c, "walker-otto");
      const auto schedule = layout_schedule(Strategy::WalkerOtto, c.source, c.dest, c.ranks);
      EXPECT_EQ(schedule->step_count(), c.name == up.name ? 3 : 4);
      for (Rank r = 0; r < 12 && r < static_cast<Rank>(ranks.ranks_needed(6, 6)); ++r) {
        EXPECT_EQ(world->log(r).send_order, scheduled_sends(*schedule, c, r)) << c.name << ", rank " << r;
      }
    }
  }
}

TEST(WalkerOttoExchange, OtherLayoutsAreRefusedOnEveryRank) {
  const LayoutCase c{"example 5", BlockCyclic(270, 2, 15), BlockCyclic(270, 3, 6), RankMap::shared()};
  test::ThreadWorld world(15);
  std::atomic<int> refused = 0;
  world.run([&](Transport& transport) {
    try {
      redistribute_and_verify(transport, c.source, c.dest, {.elem_bytes = 4, .schedule = "walker-otto", .ranks = c.ranks});
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("P = Q"), std::string::npos) << e.what();
      ++refused;
    }
  });
  EXPECT_EQ(refused.load(), 15);
}

TEST(LayoutSchedule, LeavesLocalCopiesOutAndAgreesWithTheGrid) {
  // Shared ranks: the pairs (p, p) are local copies, so stepwise needs one step less here.
  const Layout source = BlockCyclic(240, 3, 16), dest = BlockCyclic(240, 5, 16);
  const auto shared = layout_schedule(Strategy::Stepwise, source, dest, RankMap::shared());
  const auto disjoint = layout_schedule(Strategy::Stepwise, source, dest, RankMap::disjoint(16));
  EXPECT_EQ(disjoint->step_count(), 7);
  EXPECT_EQ(disjoint->total_cost(), 15);
  for (const auto& step : shared->steps) {
    for (const auto& m : step.messages) EXPECT_NE(m.src, m.dst);
  }
  EXPECT_EQ(layout_schedule(std::nullopt, source, dest, RankMap::shared()), nullptr);
  // Memoised: the same request returns the same schedule object.
  EXPECT_EQ(layout_schedule(Strategy::Stepwise, source, dest, RankMap::disjoint(16)), disjoint);
}

}  // namespace
}  // namespace redist
