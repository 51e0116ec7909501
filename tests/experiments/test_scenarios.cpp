// Scenario files: the schema's validation (file, line, reason) and the expansion of sweeps.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "redist/reports/claims.hpp"
#include "redist/reports/fidelity_summary.hpp"
#include "redist/reports/replay_report.hpp"
#include "redist/experiments/experiments.hpp"
#include "../temp_dir.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;

const std::string kGood = R"(scenario: good
paper: 004_8dd692a5076a3200.txt
table: Figure 2
platform: paragon.xml
experiment: redistribute
fixed: {P: 16, Q: 16, r: 3, s: 5}
sweep:
  N: {from: 1200, to: 19200, factor: 4}
methods:
  - name: async
    schedule: async
phases: [comm, total]
unit: ms
published:
  - params: {N: 4800}
    values: {async: {comm: 1.5}}
role: test
)";

fs::path write_temp(const std::string& name, const std::string& text) {
  // One directory per process (ctest runs these tests in parallel processes), removed at its exit.
  static const test::TempDir dir("redist-scenario-tests");
  const fs::path path = dir / name;
  std::ofstream(path) << text;
  return path;
}

Scenario load(const std::string& text, ScenarioUse use = ScenarioUse::Replay) {
  return load_scenario(write_temp("s.yaml", text).string(), sim::experiment_specs(), REDIST_SOURCE_DIR, use);
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Scenario, GoodFileExpandsItsSweep) {
  const Scenario s = load(kGood);
  EXPECT_EQ(s.name, "good");
  const auto runs = s.parameter_sets();
  ASSERT_EQ(runs.size(), 3u);  // 1200, 4800, 19200
  EXPECT_EQ(runs[1]["N"], 4800);
  EXPECT_EQ(runs[1]["P"], 16);
  EXPECT_TRUE(fs::path(s.platform).filename() == "paragon.xml");
  ASSERT_EQ(s.published.size(), 1u);
  EXPECT_DOUBLE_EQ(s.published[0].value, 1.5);
  EXPECT_DOUBLE_EQ(s.seconds_per_unit(), 1e-3);
}

struct BadCase {
  const char* name;
  std::string text;
  int line;             ///< expected line in the message (0: none)
  const char* reason;   ///< expected part of the message
};

class BadScenario : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadScenario, IsRejectedWithFileLineAndReason) {
  const auto& c = GetParam();
  try {
    load(c.text);
    FAIL() << "accepted: " << c.name;
  } catch (const ScenarioError& e) {
    const std::string message = e.what();
    const std::string where = "s.yaml" + (c.line > 0 ? ":" + std::to_string(c.line) + ":" : std::string(":"));
    EXPECT_NE(message.find(where), std::string::npos) << message;
    EXPECT_NE(message.find(c.reason), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Schema, BadScenario,
    ::testing::Values(
        BadCase{"misspelled_key", replace(kGood, "platform:", "platfrom:"), 4, "unknown key 'platfrom'"},
        BadCase{"unknown_platform", replace(kGood, "paragon.xml", "nowhere.xml"), 4, "platform file 'nowhere.xml' not found"},
        BadCase{"unknown_experiment", replace(kGood, "experiment: redistribute", "experiment: teleport"), 5, "unknown experiment 'teleport'"},
        BadCase{"unknown_schedule", replace(kGood, "schedule: async", "schedule: caterpilar"), 11, "parameter 'schedule' must be async, caterpillar, walker-otto, stepwise or greedy, got \"caterpilar\""},
        BadCase{"wrong_type", replace(kGood, "P: 16,", "P: sixteen,"), 6, "must be a positive whole number"},
        BadCase{"empty_sweep", replace(kGood, "{from: 1200, to: 19200, factor: 4}", "[]"), 8, "sweep 'N' is empty"},
        BadCase{"empty_range", replace(kGood, "{from: 1200, to: 19200, factor: 4}", "{from: 9, to: 1, step: 1}"), 8, "sweep 'N' is empty"},
        BadCase{"unknown_parameter", replace(kGood, "r: 3,", "rr: 3,"), 6, "unknown parameter 'rr'"},
        BadCase{"unknown_phase", replace(kGood, "[comm, total]", "[comm, teatime]"), 12, "no phase or quantity 'teatime'"},
        BadCase{"quantity_of_another_experiment", replace(kGood, "[comm, total]", "[comm, beta1]"), 12, "no phase or quantity 'beta1'"},
        BadCase{"missing_methods", replace(kGood, "methods:\n  - name: async\n    schedule: async\n", ""), 0, "missing required key 'methods'"},
        BadCase{"missing_paper", replace(kGood, "paper: 004_8dd692a5076a3200.txt\n", ""), 0, "missing required key 'paper'"},
        BadCase{"unknown_paper", replace(kGood, "004_8dd692a5076a3200.txt", "999_nope.txt"), 2, "is not a paper id listed in docs/papers.md"},
        BadCase{"published_unknown_method", replace(kGood, "{async: {comm: 1.5}}", "{krr: {comm: 1.5}}"), 16, "unknown method 'krr'"},
        BadCase{"published_row_matches_nothing", replace(kGood, "params: {N: 4800}", "params: {N: 4801}"), 15, "matches none"},
        BadCase{"published_not_a_number", replace(kGood, "comm: 1.5", "comm: fast"), 16, "must be a number"},
        BadCase{"required_parameter_missing", replace(kGood, "P: 16, ", ""), 0, "parameter 'P' is set neither"},
        BadCase{"fixed_and_swept", replace(kGood, "s: 5}", "s: 5, N: 3}"), 8, "both fixed and swept"},
        BadCase{"bad_unit", replace(kGood, "unit: ms", "unit: fortnights"), 13, "'unit' must be"},
        BadCase{"yaml_syntax", replace(kGood, "phases: [comm, total]", "phases: [comm, total"), 0, "YAML syntax error"},
        BadCase{"not_a_mapping", "- just\n- a list\n", 0, "must be a YAML mapping"},
        BadCase{"duplicate_method", replace(kGood, "    schedule: async\n", "    schedule: async\n  - name: async\n"), 12, "appears twice"},
        BadCase{"bad_scenario_name", replace(kGood, "scenario: good", "scenario: Good Name"), 1, "may use only"},
        BadCase{"missing_role", replace(kGood, "role: test\n", ""), 0, "missing required key 'role'"},
        BadCase{"unknown_role", replace(kGood, "role: test", "role: exam"), 17, "'role' must be train, test or claims"},
        BadCase{"train_without_published",
                replace(kGood, kGood.substr(kGood.find("published:")), "role: train\n"), 14, "role 'train' needs published values"},
        BadCase{"claim_unknown_kind", kGood + "claims: [{claim: c, kind: sideways, method: async, phase: comm}]\n", 18,
                "unknown claim kind 'sideways'"},
        BadCase{"claim_unknown_method", kGood + "claims: [{claim: c, kind: below, method: krr, than: async, phase: comm}]\n",
                18, "claim names unknown method 'krr'"},
        BadCase{"claim_key_of_other_kind", kGood + "claims: [{claim: c, kind: below, method: async, than: async, phase: comm, along: N}]\n",
                18, "unknown key 'along'"},
        BadCase{"claim_along_not_swept", kGood + "claims: [{claim: c, kind: decreasing, method: async, phase: comm, along: P}]\n",
                18, "which is not swept"},
        BadCase{"spread_along_not_swept", kGood + "claims: [{claim: c, kind: spread, method: async, phase: comm, max_ratio: 2, along: P}]\n",
                18, "which is not swept"},
        BadCase{"claim_than_phase_not_measured", kGood + "claims: [{claim: c, kind: below, method: async, than: async, phase: comm, than_phase: pack}]\n",
                18, "claim of phase 'pack' that the scenario does not measure"},
        BadCase{"claim_unknown_quantity", kGood + "claims: [{claim: c, kind: follows, method: async, phase: comm, quantity: q, min_correlation: 0.5}]\n",
                18, "reports no quantity 'q'"},
        BadCase{"claim_method_and_ratio", kGood + "claims: [{claim: c, kind: spread, method: async, ratio: {numerator: async, denominator: async}, phase: comm, max_ratio: 2}]\n",
                18, "exactly one of 'method' and 'ratio'"},
        BadCase{"claim_bad_number", kGood + "claims: [{claim: c, kind: spread, method: async, phase: comm, max_ratio: lots}]\n",
                18, "'max_ratio' must be a number"},
        BadCase{"between_without_bounds", kGood + "claims: [{claim: c, kind: between, method: async, phase: comm}]\n", 18,
                "needs 'min', 'max' or both"},
        BadCase{"between_max_below_min", kGood + "claims: [{claim: c, kind: between, method: async, phase: comm, min: 2, max: 1}]\n",
                18, "'max' must not be below 'min'"},
        BadCase{"between_where_covers_nothing", kGood + "claims: [{claim: c, kind: between, method: async, phase: comm, where: {N: 1201}, min: 1}]\n",
                18, "covers none of the scenario's runs"},
        BadCase{"between_where_unknown_parameter", kGood + "claims: [{claim: c, kind: between, method: async, phase: comm, where: {M: 1}, min: 1}]\n",
                18, "unknown parameter 'M'"},
        BadCase{"between_where_bad_range", kGood + "claims: [{claim: c, kind: between, method: async, phase: comm, where: {N: {above: 1}}, min: 1}]\n",
                18, "unknown key 'above'"}),
    [](const auto& test_case) { return std::string(test_case.param.name); });

TEST(Scenario, SweepFilesCarryNoPublishedValues) {
  EXPECT_THROW(load(kGood, ScenarioUse::Sweep), ScenarioError);
  const auto sweep = load(replace(kGood, kGood.substr(kGood.find("published:")), ""), ScenarioUse::Sweep);
  EXPECT_TRUE(sweep.published.empty());
}

TEST(Scenario, EveryBundledScenarioLoads) {
  for (const auto& entry : fs::directory_iterator(fs::path(REDIST_SOURCE_DIR) / "scenarios")) {
    if (entry.path().extension() != ".yaml") continue;
    EXPECT_NO_THROW(load_scenario(entry.path().string(), sim::experiment_specs(), REDIST_SOURCE_DIR, ScenarioUse::Replay))
        << entry.path();
  }
  for (const auto& entry : fs::directory_iterator(fs::path(REDIST_SOURCE_DIR) / "scenarios" / "sweeps")) {
    EXPECT_NO_THROW(load_scenario(entry.path().string(), sim::experiment_specs(), REDIST_SOURCE_DIR, ScenarioUse::Sweep))
        << entry.path();
  }
}

TEST(Comparison, OrderingAgreementAndMedianError) {
  Scenario s;
  s.name = "t";
  const Params a = {{"N", 1}}, b = {{"N", 2}};
  std::vector<Record> records = {
      {a, "x", "comm", 1.0, 2.0, {}}, {a, "y", "comm", 2.0, 4.0, {}},  // same order, errors 50% and 50%
      {b, "x", "comm", 3.0, 2.0, {}}, {b, "y", "comm", 2.0, 4.0, {}},  // order reversed, errors 50% and 50%
      {b, "z", "comm", 9.0, std::nullopt, {}},
  };
  const auto metrics = compare(records);
  ASSERT_TRUE(metrics.ordering_agreement);
  EXPECT_DOUBLE_EQ(*metrics.ordering_agreement, 0.5);
  EXPECT_EQ(metrics.ordering_rows, 2);
  EXPECT_EQ(metrics.published_cells, 4);
  EXPECT_DOUBLE_EQ(*metrics.median_relative_error, 0.5);
}

TEST(Comparison, MethodsThePaperPrintsAsEqualMayComeInAnyOrder) {
  const Params a = {{"N", 1}}, b = {{"N", 2}}, c = {{"N", 3}}, d = {{"N", 4}};
  std::vector<Record> records = {
      // x = y in the paper, both below z: the simulated y < x < z agrees.
      {a, "x", "comm", 2.0, 3.0, {}}, {a, "y", "comm", 1.0, 3.0, {}}, {a, "z", "comm", 5.0, 4.0, {}},
      // the same published row, but z simulated below x: disagrees.
      {b, "x", "comm", 2.0, 3.0, {}}, {b, "y", "comm", 1.0, 3.0, {}}, {b, "z", "comm", 1.5, 4.0, {}},
      // the paper orders x < y, the simulation ties them: disagrees.
      {c, "x", "comm", 2.0, 1.0, {}}, {c, "y", "comm", 2.0, 2.0, {}},
      // every published value equal: the paper orders nothing, the row is not counted.
      {d, "x", "comm", 2.0, 1.0, {}}, {d, "y", "comm", 1.0, 1.0, {}},
  };
  const auto metrics = compare(records);
  ASSERT_TRUE(metrics.ordering_agreement);
  EXPECT_EQ(metrics.ordering_rows, 3);
  EXPECT_DOUBLE_EQ(*metrics.ordering_agreement, 1.0 / 3);
}

// A scenario over N = 1, 2, 3 and two methods, for claims on hand-made records.
class Claims : public ::testing::Test {
 protected:
  void SetUp() override {
    s.name = "t";
    s.fixed = {{"P", 4}};
    s.sweep = {{"N", {1, 2, 3}}};
    s.methods = {{"fast", {}}, {"slow", {}}};
    s.phases = {"comm"};
  }
  void add(const std::string& method, const std::vector<double>& values, const std::vector<double>& quantity = {}) {
    const auto runs = s.parameter_sets();
    for (std::size_t k = 0; k < runs.size(); ++k) {
      records.push_back({runs[k], method, "comm", values[k], std::nullopt, {}});
      if (!quantity.empty()) records.back().quantities["q"] = quantity[k];
    }
  }
  static ClaimSpec claim(ClaimSpec::Kind kind, const std::string& method) {
    ClaimSpec c;
    c.text = "claim";
    c.kind = kind;
    c.method = method;
    return c;
  }
  bool holds(ClaimSpec c) {
    c.phase = "comm";
    s.claims = {c};
    return check_claims(s, records).at(0).holds;
  }
  Scenario s;
  std::vector<Record> records;
};

TEST_F(Claims, BelowAndAboveCompareEveryRow) {
  add("fast", {1, 2, 3});
  add("slow", {2, 3, 3});  // a tie at N = 3
  ClaimSpec c = claim(ClaimSpec::Kind::Below, "fast");
  c.than = {"slow"};
  EXPECT_FALSE(holds(c));
  records.back().simulated = 3.5;
  EXPECT_TRUE(holds(c));
  c.kind = ClaimSpec::Kind::Above;
  EXPECT_FALSE(holds(c));
  c.method = "slow", c.than = {"fast"};
  EXPECT_TRUE(holds(c));
}

// than_phase: a method's phase against another phase (of itself or of other methods).
TEST_F(Claims, BelowAndAboveCompareWithAnotherPhase) {
  s.phases = {"comm", "comp"};
  add("fast", {4, 5, 6});  // comm
  for (const auto& run : s.parameter_sets()) {
    records.push_back({run, "fast", "comp", 4.5, std::nullopt, {}});
  }
  ClaimSpec c = claim(ClaimSpec::Kind::Above, "fast");
  c.than = {"fast"};
  c.than_phase = "comp";
  EXPECT_FALSE(holds(c));  // comm 4 < comp 4.5 at N = 1
  records.front().simulated = 4.6;
  EXPECT_TRUE(holds(c));
  c.kind = ClaimSpec::Kind::Below;
  EXPECT_FALSE(holds(c));
  c.than_phase.clear();  // against its own comm: never strictly below
  EXPECT_FALSE(holds(c));
}

TEST_F(Claims, TrendsAllowTheirTolerance) {
  add("fast", {3, 2, 2.1});
  add("slow", {6, 6, 6});
  ClaimSpec c = claim(ClaimSpec::Kind::Decreasing, "fast");
  c.along = "N";
  EXPECT_FALSE(holds(c));
  c.tolerance = 0.06;
  EXPECT_TRUE(holds(c));
  c.kind = ClaimSpec::Kind::Increasing;
  EXPECT_FALSE(holds(c));
  // slow / fast = 2, 3, 2.86: rising, then falling by less than 6%.
  ClaimSpec ratio = claim(ClaimSpec::Kind::Increasing, "");
  ratio.ratio = RatioSpec{"slow", "fast", "comm", ""};
  ratio.along = "N";
  ratio.tolerance = 0.06;
  EXPECT_TRUE(holds(ratio));
  ratio.tolerance = 0;
  EXPECT_FALSE(holds(ratio));
}

TEST_F(Claims, SpreadAndFollows) {
  add("fast", {1, 2, 4}, {10, 20, 40});
  add("slow", {5, 5, 5}, {1, 2, 3});
  ClaimSpec spread = claim(ClaimSpec::Kind::Spread, "fast");
  spread.max_ratio = 4;
  EXPECT_TRUE(holds(spread));
  spread.max_ratio = 3.9;
  EXPECT_FALSE(holds(spread));
  ClaimSpec follows = claim(ClaimSpec::Kind::Follows, "fast");
  follows.quantity = "q";
  follows.min_correlation = 0.99;
  EXPECT_TRUE(holds(follows));
  records[1].simulated = 5;  // 1, 5, 4 against 10, 20, 40
  EXPECT_FALSE(holds(follows));
  follows.method = "slow";  // constant: no correlation to speak of
  EXPECT_FALSE(holds(follows));
}

// Spread along an axis: "independent of N" in each direction, though the directions differ 3-fold.
TEST_F(Claims, SpreadAlongAnAxisIsTakenWithinEachGroupOfTheOtherParameters) {
  s.sweep = {{"direction", {"there", "back"}}, {"N", {1, 2, 3}}};
  for (const auto& run : s.parameter_sets()) {
    const double level = run["direction"] == "there" ? 3.0 : 1.0;
    records.push_back({run, "fast", "comm", level * (1 + 0.1 * run["N"].get<double>()), std::nullopt, {}});
  }
  ClaimSpec c = claim(ClaimSpec::Kind::Spread, "fast");
  c.max_ratio = 1.25;  // within a direction: 1.3 / 1.1 = 1.18
  EXPECT_FALSE(holds(c));  // over every run: 3.9 / 1.1
  c.along = "N";
  EXPECT_TRUE(holds(c));
  c.max_ratio = 1.15;
  EXPECT_FALSE(holds(c));
  s.claims = {c};
  s.claims.back().phase = "comm";
  const auto detail = check_claims(s, records).at(0).detail;
  EXPECT_NE(detail.find("along N at"), std::string::npos) << detail;
  EXPECT_NE(detail.find("the widest of 2 groups"), std::string::npos) << detail;
}

TEST_F(Claims, BetweenHoldsOnlyInsideItsBoundsOverTheRunsOfWhere) {
  add("fast", {1, 2, 3});
  add("slow", {2, 5, 5});  // fast / slow = 0.5, 0.4, 0.6
  ClaimSpec c = claim(ClaimSpec::Kind::Between, "");
  c.ratio = RatioSpec{"fast", "slow", "comm", ""};
  c.min = 0.4, c.max = 0.6;  // bounds are inclusive
  EXPECT_TRUE(holds(c));
  c.max = 0.59;
  EXPECT_FALSE(holds(c));
  c.where = {{"N", {{"to", 2}}}};  // N = 1 and 2 only: 0.5 and 0.4
  EXPECT_TRUE(holds(c));
  c.where = {{"N", 2}};
  c.min = 0.41, c.max = std::nullopt;  // a lower bound only
  EXPECT_FALSE(holds(c));
  c.where = {{"N", {{"from", 3}}}};
  EXPECT_TRUE(holds(c));
  c.min = std::nullopt, c.max = 0.55;  // an upper bound only
  EXPECT_FALSE(holds(c));
  ClaimSpec method = claim(ClaimSpec::Kind::Between, "slow");  // a method's own series
  method.min = 2, method.max = 5;
  EXPECT_TRUE(holds(method));
  method.where = {{"P", 5}};  // covers no run: cannot hold
  EXPECT_FALSE(holds(method));
}

TEST(ClaimWhere, MatchesValuesAndInclusiveRanges) {
  const Params run = {{"P", 16}, {"N", 1200}, {"schedule", "stepwise"}};
  EXPECT_TRUE(run_in(Params::object(), run));
  EXPECT_TRUE(run_in({{"N", 1200}, {"schedule", "stepwise"}}, run));
  EXPECT_FALSE(run_in({{"N", 1201}}, run));
  EXPECT_TRUE(run_in({{"N", {{"from", 1200}, {"to", 1200}}}}, run));
  EXPECT_FALSE(run_in({{"N", {{"from", 1201}}}}, run));
  EXPECT_FALSE(run_in({{"N", {{"to", 1199}}}}, run));
  EXPECT_FALSE(run_in({{"schedule", {{"from", 1}}}}, run));  // a range needs a number
  EXPECT_FALSE(run_in({{"Q", 16}}, run));                    // not a parameter of the run
}

}  // namespace
// The summary shows, per fitted platform, the train and cross-validated errors of its header.
TEST(FidelitySummary, ShowsEachFittedPlatformsTrainAndCrossValidatedErrors) {
  const test::TempDir dir("redist-test-summary");
  const auto platform = dir.path() / "m-fitted.xml";
  std::ofstream(platform) << "<!--\n  FITTED by `redist fit m.fit.yaml` from m.xml on the train scenarios a, b\n"
                             "  fit errors: train median relative error 15.9%, cross-validated 23.4% (leave one scenario "
                             "out, 2 groups, linearised; every value fitted: 31.0%);\n  not fitted, ...: run_copied\n-->\n";
  const auto fit = read_fit_errors(platform.string());
  ASSERT_TRUE(fit);
  EXPECT_DOUBLE_EQ(*fit->train, 0.159);
  EXPECT_DOUBLE_EQ(*fit->cross_validated, 0.234);
  EXPECT_EQ(fit->validation, "leave one scenario out, 2 groups, linearised");
  ScenarioFidelity f;
  f.scenario = "a";
  f.paper = "000_x.txt";
  f.role = "train";
  f.platform = "m-fitted.xml";
  f.fitted = true;
  f.fit = fit;
  f.errors = {0.1};
  const std::string md = fidelity_markdown({f});
  EXPECT_NE(md.find("## Fitted platforms"), std::string::npos) << md;
  EXPECT_NE(md.find("| m-fitted.xml | 15.9% | 23.4% | leave one scenario out, 2 groups, linearised |"), std::string::npos) << md;
  const auto json = fidelity_json({f});
  ASSERT_EQ(json["fitted_platforms"].size(), 1u);
  EXPECT_DOUBLE_EQ(json["fitted_platforms"][0]["cross_validated_median_relative_error"].get<double>(), 0.234);
  // A derived platform, or a fitted one from before cross-validation: nothing to show.
  std::ofstream(platform) << "<!-- FITTED by `redist fit m.fit.yaml` from m.xml -->\n";
  EXPECT_FALSE(read_fit_errors(platform.string()));
}

}  // namespace redist
