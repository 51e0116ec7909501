// One Phases type from the rank to the report: exact across the process boundary, reduced over ranks
// phase by phase, and named once.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <set>
#include <string>

#include "redist/experiments/phase.hpp"
#include "redist/reports/phases_transfer.hpp"
#include "redist/reports/simulation_report.hpp"

namespace redist {
namespace {

// Every field different, with values a decimal text may round: thirds, a subnormal, the largest double.
Phases awkward() {
  Phases p;
  double v = 1.0 / 3;
  for (const auto field : kPhaseFields) p.*field = (v *= 7.0 / 3);
  p.prs = std::numeric_limits<double>::denorm_min();
  p.redist = std::numeric_limits<double>::max();
  p.comp = 0.1;
  return p;
}

TEST(Phases, CrossAProcessBoundaryExactly) {
  const Phases sent = awkward();
  const std::string text = nlohmann::json(sent).dump();  // what a pipe carries
  const auto received = nlohmann::json::parse(text).get<Phases>();
  EXPECT_EQ(received, sent);
  for (const auto field : kPhaseFields) EXPECT_EQ(std::memcmp(&(received.*field), &(sent.*field), sizeof(double)), 0);
}

TEST(Phases, RejectWhatIsNotTheirArray) {
  EXPECT_THROW(nlohmann::json::parse("[1, 2, 3]").get<Phases>(), std::runtime_error);
  EXPECT_THROW(nlohmann::json::parse(R"({"index": 1})").get<Phases>(), std::runtime_error);
}

TEST(Phases, ARunIsEachPhasesSlowestRankWithDerivedPhasesPerRank) {
  VerifiedReport fast, slow;
  fast.report.phases = {.index = 1, .pack = 5, .comm = 1, .unpack = 0.5, .total = 9};
  slow.report.phases = {.index = 2, .pack = 1, .comm = 3, .unpack = 4, .total = 10};
  fast.verified = slow.verified = true;
  const RunSummary run = summarize_ranks({rank_report_to_json(fast), rank_report_to_json(slow)});
  EXPECT_EQ(run.phases.index, 2);
  EXPECT_EQ(run.phases.pack, 5);
  EXPECT_EQ(run.phases.total, 10);
  EXPECT_EQ(run.phases.comp, 7);   // the slow rank's 2 + 1 + 4 (the fast one's 6.5), not 2 + 5 + 4
  EXPECT_EQ(run.phases.local, 8);  // the fast rank's 9 - 1 (the slow one's 10 - 3), not 10 - 3
  EXPECT_EQ(seconds(run.phases, Phase::PackingUnpacking), 9);  // paper 000's column: 5 + 4
  EXPECT_EQ(run.verified, std::optional<bool>(true));
}

TEST(Phases, HaveOneNameEachReadFromTheRun) {
  const Phases run = awkward();
  std::set<std::string> names;
  for (const Phase phase : phase_names().values()) {
    const std::string name(phase_names().name_of(phase));
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_EQ(phase_names().from_name(name), phase);
  }
  EXPECT_EQ(phases_json(run, {Phase::Communication, Phase::Generation}).dump(),
            nlohmann::ordered_json({{"comm", run.comm}, {"generate", run.total}}).dump());
  EXPECT_THROW(phase_names().from_name("beta1"), std::invalid_argument);
}

}  // namespace
}  // namespace redist
