// `redist tables`: Krr's tables as the paper prints them (Figs. 3 and 5), the JSON shape, and one
// error line for bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace redist {
namespace {

using test::run_command;

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

TEST(TablesCommand, PrintsFigure3) {
  const auto result = run_command(redist("tables --method krr -P 2 -Q 4 -r 10 -s 2 --rank 0 --side send"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("kr -> r, k = 5, r = 2"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("msg0        (4, 0)    (2, 14)\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("msg1        (2, 2)    (2, 16)\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("msg2        (2, 4)    (4, 10)\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("msg3        (2, 6)    (2, 12)\n"), std::string::npos) << result.out;
}

TEST(TablesCommand, Figure5AsJson) {
  const auto result = run_command(redist("tables --method krr -P 2 -Q 4 -r 10 -s 2 --rank 0 --side recv --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::ordered_json::parse(result.out);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"rank", "side", "messages"}));
  EXPECT_EQ(json["side"], "recv");
  EXPECT_EQ(json["messages"], nlohmann::ordered_json::parse(R"([{"peer":0,"classes":[{"size":4,"first":0},{"size":2,"first":6}]},
                                                        {"peer":1,"classes":[{"size":2,"first":4},{"size":2,"first":8}]}])"));
}

TEST(TablesCommand, RToKrPackingTable) {
  // BC(2) over 4 -> BC(10) over 2: in a cycle of 40, P0 holds 0 1 8 9 | 16 17 | 24 25 | 32 33,
  // which go to Q0, Q1, Q0, Q1; its first two blocks are consecutive locally: one class (4, 0).
  const auto result = run_command(redist("tables -P 4 -Q 2 -r 2 -s 10 --rank 0 --side send --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["messages"],
            nlohmann::json::parse(R"([{"peer":0,"classes":[{"size":4,"first":0},{"size":2,"first":6}]},
                                      {"peer":1,"classes":[{"size":2,"first":4},{"size":2,"first":8}]}])"));
}

class BadTablesInput : public ::testing::TestWithParam<const char*> {};

TEST_P(BadTablesInput, OneClearErrorLine) {
  const auto result = run_command(redist(GetParam()));
  test::expect_one_error_line(result);
}

INSTANTIATE_TEST_SUITE_P(
    Tables, BadTablesInput,
    ::testing::Values("tables -P 2 -Q 4 -r 3 -s 2 --rank 0 --side send",         // not kr <-> r
                      "tables -P 2 -Q 4 -r 10 -s 2 --rank 2 --side send",        // no source P2
                      "tables -P 2 -Q 4 -r 10 -s 2 --rank -1 --side recv",
                      "tables -P 2 -Q 4 -r 10 -s 2 --rank 0 --side both",
                      "tables -P 2 -Q 4 -r 10 -s 2 --rank 0",                    // --side missing
                      "tables --method prylli -P 2 -Q 4 -r 10 -s 2 --rank 0 --side send",
                      "tables -P 0 -Q 4 -r 10 -s 2 --rank 0 --side send",
                      "tables -P 2 -Q 4 -r 1.5 -s 2 --rank 0 --side send",
                      "tables -P 3037000500 -Q 3037000499 -r 3037000500 -s 1 --rank 0 --side send"));

}  // namespace
}  // namespace redist
