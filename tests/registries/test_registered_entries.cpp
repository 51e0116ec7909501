// A new indexing method or schedule strategy is its own code plus one registry entry: registered
// here from the test alone (no other file names them), a dummy method and a dummy schedule reach
// `redist validate`'s random cases, the documented table of choices (`redist experiments`, pasted in
// scenarios/README.md), the names redistribute() and scenarios accept, the `work: paper` accounting
// and a real redistribution.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>

#include "redist/reports/schema_table.hpp"
#include "redist/calibration/random_validation_cases.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/indexing/naive_indexing.hpp"
#include "redist/redistribute/verified_run.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/schedule/caterpillar.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/experiments/experiments.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

constexpr const char* kMethod = "dummy-indexing";
constexpr const char* kMethodSays = "a test's stand-in: naive's owner scan under another name";
constexpr const char* kSchedule = "dummy-schedule";
constexpr const char* kScheduleSays = "a test's stand-in: the caterpillar's steps under another name";

Schedule dummy_schedule(const LengthMatrix& lengths) { return caterpillar_schedule(lengths); }

// Before main(): before anything reads the registries (the experiments' schemas are built on first use).
const Strategy kDummyStrategy = [] {
  register_indexing_method({.name = kMethod,
                            .plan = naive_plan,
                            .unpack_order = UnpackOrder::SourceRank,
                            .per_dimension = false,
                            .description = kMethodSays});
  return register_schedule_strategy({.name = kSchedule, .description = kScheduleSays, .from_lengths = dummy_schedule});
}();

TEST(RegisteredEntries, AppearInTheRandomValidationCases) {
  std::set<std::string> indexings, schedules;
  for (const auto& c : calibration::random_validation_cases(60, 18)) {
    indexings.insert(c.indexing);
    schedules.insert(c.schedule);
  }
  EXPECT_TRUE(indexings.contains(kMethod));
  EXPECT_TRUE(schedules.contains(kSchedule));
  EXPECT_TRUE(indexings.contains("krr"));  // the built-in ones still
  EXPECT_TRUE(schedules.contains("walker-otto"));
}

TEST(RegisteredEntries, AppearInTheDocumentedTableOfChoices) {
  const std::string table = schema_markdown(sim::experiment_specs());
  for (const std::string& text : {std::string(kMethod) + ": " + kMethodSays, std::string(kSchedule) + ": " + kScheduleSays,
                                 std::string("naive, krr, pitfalls, prylli or ") + kMethod,
                                 std::string("stepwise, greedy or ") + kSchedule}) {
    EXPECT_NE(table.find(text), std::string::npos) << text << "\n" << table;
  }
}

TEST(RegisteredEntries, AreNamedAndScheduled) {
  EXPECT_EQ(schedule_from_name(kSchedule), ScheduleChoice(kDummyStrategy));
  EXPECT_EQ(name_of(kDummyStrategy), kSchedule);
  const LengthMatrix lengths(comm_grid({4, 3, 6, 5}));
  const Schedule dummy = make_schedule(kDummyStrategy, lengths), caterpillar = caterpillar_schedule(lengths);
  ASSERT_EQ(dummy.step_count(), caterpillar.step_count());
  for (std::size_t k = 0; k < dummy.steps.size(); ++k) EXPECT_EQ(dummy.steps[k].messages, caterpillar.steps[k].messages);
  EXPECT_EQ(indexing_method(kMethod).description, kMethodSays);
  // No paper's program is modelled for the dummy: `work: paper` refuses it by name.
  EXPECT_THROW(work_accounting("paper", kMethod, BlockCyclic(40, 2, 2), BlockCyclic(40, 5, 2), RankMap::shared(), 0),
               std::invalid_argument);
}

TEST(RegisteredEntries, RedistributeRealData) {
  const Layout source = BlockCyclic(301, 3, 5, 2), dest = BlockCyclic(301, 6, 3, 1);
  test::ThreadWorld world(5);
  std::atomic<Index> misplaced = 0, checked = 0;
  world.run([&](Transport& transport) {
    const auto result =
        redistribute_and_verify(transport, source, dest, {.elem_bytes = 4, .indexing = kMethod, .schedule = kSchedule});
    misplaced += result.misplaced;
    checked += result.verified.value_or(false) ? 1 : 0;
  });
  EXPECT_EQ(misplaced.load(), 0);
  EXPECT_EQ(checked.load(), 5);
}

}  // namespace
}  // namespace redist
