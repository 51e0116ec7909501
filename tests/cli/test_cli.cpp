// The `redist` command line, run as a user would: outputs, JSON shape, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace redist {
namespace {

using test::run_command;

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

TEST(GridCommand, PrintsThePaperTable) {
  const auto result = run_command(redist("grid -P 16 -r 3 -Q 16 -s 5"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("L = 240"), std::string::npos);
  // Row 0 of paper 004's table 1: 3 - - 3 - - 3 - - 2 1 - 1 2 - - and 7 messages.
  EXPECT_NE(result.out.find("0              3  -  -  3  -  -  3  -  -  2  1  -  1  2  -  -  7"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("m_R = 7, per receiver m_C = 7"), std::string::npos);
}

TEST(GridCommand, JsonHasTheDesignShape) {
  const auto result = run_command(redist("grid -P 12 -r 4 -Q 8 -s 3 --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::ordered_json::parse(result.out);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"P", "Q", "r", "s", "L", "grid"}));
  EXPECT_EQ(json["L"], 48);
  ASSERT_EQ(json["grid"].size(), 12u);
  EXPECT_EQ(json["grid"][0], nlohmann::json::parse("[3,1,0,0,0,0,0,0]"));
  EXPECT_EQ(json["grid"][11], nlohmann::json::parse("[0,0,0,0,0,0,1,3]"));
}

// Each bad input gives exactly one line on stderr, nothing on stdout, and a non-zero status.
class BadGridInput : public ::testing::TestWithParam<const char*> {};

TEST_P(BadGridInput, OneClearErrorLine) {
  const auto result = run_command(redist(GetParam()));
  test::expect_one_error_line(result);
}

INSTANTIATE_TEST_SUITE_P(Grid, BadGridInput,
                         ::testing::Values("grid -P 0 -r 3 -Q 16 -s 5", "grid -P 16 -r -3 -Q 16 -s 5",
                                           "grid -P 16 -r 3 -Q 16 -s 0", "grid -P abc -r 3 -Q 16 -s 5",
                                           "grid -P 16 -r 3 -Q 16", "grid -P 16 -r 3 -Q 16 -s 5.5",
                                           "grid -P 99999999999999999999 -r 3 -Q 16 -s 5",
                                           "grid -P 4000000000 -r 4000000000 -Q 3 -s 7",
                                           "grid -P 3037000500 -r 3037000500 -Q 1 -s 1",
                                           "grid -P 16 -r 3 -Q 16 -s 5 --bogus", "nosuchcommand", "",
                                           "grid -P 0x10 -r 3 -Q 16 -s 5", "grid -P 16 -r 3 -Q 16 -s 1e1",
                                           "replay --all --max-runs -5", "replay --all --progress-seconds nan"));

// A leading zero is a decimal number like any other, not octal: -P 010 is 10 processors.
TEST(GridCommand, LeadingZerosAreDecimal) {
  const auto result = run_command(redist("grid -P 010 -r 04 -Q 8 -s 3 --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::ordered_json::parse(result.out);
  EXPECT_EQ(json["P"], 10);
  EXPECT_EQ(json["r"], 4);
}

TEST(GridCommand, OverflowIsNamed) {
  const auto result = run_command(redist("grid -P 4000000000 -r 4000000000 -Q 3 -s 7"));
  EXPECT_NE(result.err.find("overflows"), std::string::npos) << result.err;
  const auto zero = run_command(redist("grid -P 0 -r 3 -Q 16 -s 5"));
  EXPECT_NE(zero.err.find("P (source processors) must be a positive integer (got 0)"), std::string::npos) << zero.err;
}

}  // namespace
}  // namespace redist
