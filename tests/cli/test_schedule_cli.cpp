// `redist schedule`, run as a user would: the paper's tables, the JSON shape, plots and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "run_command.hpp"
#include "temp_dir.hpp"

namespace redist {
namespace {

using test::run_command;

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " schedule " + args; }

TEST(ScheduleCommand, PrintsStepAndCostTables) {
  const auto result = run_command(redist("-P 15 -r 2 -Q 6 -s 3 --strategy stepwise"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("Stepwise schedule for P = 15, Q = 6, r = 2, s = 3: NS = 10 steps, TC = 20"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("Sender/Recv.  0 1 2 3 4 5\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("Step          a b c d e f g h i j Total\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("Cost          2 2 2 2 2 2 2 2 2 2    20\n"), std::string::npos) << result.out;
}

// Table 19: the caterpillar's empty steps are listed with cost 0.
TEST(ScheduleCommand, CaterpillarReproducesTable19) {
  const auto result = run_command(redist("-P 12 -r 4 -Q 8 -s 3 --strategy caterpillar"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("Cost          3 0 0 0 3 3 3 0 0 0 3 3    18\n"), std::string::npos) << result.out;
  // Step a pairs p with q = p; source 0 sends to 1 at the last step, l.
  EXPECT_NE(result.out.find("0             a l - - - - - -\n"), std::string::npos) << result.out;
}

TEST(ScheduleCommand, JsonHasTheDesignShape) {
  const auto result = run_command(redist("-P 16 -r 3 -Q 16 -s 5 --strategy stepwise --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::ordered_json::parse(result.out);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"NS", "TC", "steps"}));
  EXPECT_EQ(json["NS"], 7);
  EXPECT_EQ(json["TC"], 15);
  ASSERT_EQ(json["steps"].size(), 7u);
  const auto& first = json["steps"][0];
  keys.clear();
  for (const auto& item : first.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"cost", "messages"}));
  EXPECT_EQ(first["cost"], 3);
  ASSERT_EQ(first["messages"].size(), 16u);
  keys.clear();
  for (const auto& item : first["messages"][0].items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"src", "dst", "length"}));
  for (const auto& m : first["messages"]) EXPECT_EQ(m["length"], 3);
}

TEST(ScheduleCommand, WalkerOttoOnItsOwnProblem) {
  const auto result = run_command(redist("-P 8 -r 2 -Q 8 -s 6 --strategy walker-otto --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["NS"], 3);
  EXPECT_EQ(json["TC"], 6);
}

bool matplotlib_available() { return run_command("/usr/bin/python3 -c 'import matplotlib'").status == 0; }

TEST(ScheduleCommand, PlotsAPng) {
  if (!matplotlib_available()) GTEST_SKIP() << "python3-matplotlib is not installed";
  const test::TempDir dir("redist-schedule");
  const auto png = dir / "schedule.png";
  const auto result = run_command(redist("-P 15 -r 2 -Q 6 -s 3 --strategy greedy --plot " + png.string()));
  ASSERT_EQ(result.status, 0) << result.err;
  ASSERT_TRUE(std::filesystem::exists(png));
  EXPECT_EQ(test::slurp(png).substr(1, 3), "PNG");
  EXPECT_NE(result.out.find("Greedy schedule"), std::string::npos);
}

// Each bad input gives exactly one line on stderr, nothing on stdout, a non-zero status, and no file.
class BadScheduleInput : public ::testing::TestWithParam<const char*> {};

TEST_P(BadScheduleInput, OneClearErrorLine) {
  const test::TempDir dir("redist-bad");
  const auto png = dir / "bad.png";
  std::string args = GetParam();
  if (const auto at = args.find("OUT.png"); at != std::string::npos) args.replace(at, 7, png.string());
  const auto result = run_command(args.rfind("REDIST_PYTHON", 0) == 0 ? args.substr(0, args.find(' ') + 1) + redist(args.substr(args.find(' ') + 1))
                                                                       : redist(args));
  test::expect_one_error_line(result);
  EXPECT_FALSE(std::filesystem::exists(png));
}

INSTANTIATE_TEST_SUITE_P(
    Schedule, BadScheduleInput,
    ::testing::Values("-P 0 -r 2 -Q 6 -s 3 --strategy stepwise", "-P 15 -r -2 -Q 6 -s 3 --strategy stepwise",
                      "-P 15 -r 2 -Q 6 -s 3.5 --strategy greedy", "-P 15 -r 2 -Q x -s 3 --strategy greedy",
                      "-P 15 -r 2 -Q 6 -s 3", "-P 15 -r 2 -Q 6 -s 3 --strategy fastest",
                      "-P 15 -r 2 -Q 6 -s 3 --strategy walker-otto", "-P 16 -r 2 -Q 16 -s 3 --strategy walker-otto",
                      "-P 4000000000 -r 4000000000 -Q 3 -s 7 --strategy stepwise",
                      "-P 15 -r 2 -Q 6 -s 3 --strategy greedy --bogus",
                      "REDIST_PYTHON=no-such-python -P 15 -r 2 -Q 6 -s 3 --strategy greedy --plot OUT.png",
                      "-P 15 -r 2 -Q 6 -s 3 --strategy greedy --plot /no/such/dir/x.png"));

}  // namespace
}  // namespace redist
