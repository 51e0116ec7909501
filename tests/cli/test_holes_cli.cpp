// `redist holes`, run as a user would: the paper's figures in text and JSON, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace redist {
namespace {

using test::run_command;

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

std::vector<std::string> keys(const nlohmann::ordered_json& object) {
  std::vector<std::string> out;
  for (const auto& item : object.items()) out.push_back(item.key());
  return out;
}

TEST(HolesCommand, JsonReproducesFigures4And6And2b) {
  const auto result = run_command(redist("holes -P 4 --block 5 --stride 3 --offset 1 -n 40 --rank 0 --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::ordered_json::parse(result.out);
  EXPECT_EQ(keys(json), (std::vector<std::string>{"class_table", "compression_table", "local_array"}));
  EXPECT_EQ(keys(json["class_table"][0]), (std::vector<std::string>{"class", "first", "last", "count"}));
  EXPECT_EQ(keys(json["compression_table"][0]), (std::vector<std::string>{"occurrence", "global", "count", "local"}));
  EXPECT_EQ(json["class_table"], nlohmann::ordered_json::parse(R"([{"class":0,"first":0,"last":1,"count":2},
      {"class":1,"first":2,"last":2,"count":1},{"class":2,"first":3,"last":4,"count":2}])"));
  EXPECT_EQ(json["compression_table"], nlohmann::ordered_json::parse(R"([{"occurrence":0,"global":0,"count":2,"local":0},
      {"occurrence":1,"global":7,"count":1,"local":2},{"occurrence":2,"global":13,"count":2,"local":3}])"));
  EXPECT_EQ(json["local_array"], nlohmann::json::parse("[0,1,7,13,14,20,21,27,33,34]"));
  // The whole output is one line of compact JSON.
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1);
}

TEST(HolesCommand, JsonOfRank1AndOfTheGeneralCase) {
  const auto p1 = run_command(redist("holes -P 4 --block 5 --stride 3 --offset 1 -n 40 --rank 1 --json"));
  ASSERT_EQ(p1.status, 0) << p1.err;
  EXPECT_EQ(nlohmann::json::parse(p1.out)["compression_table"],
            nlohmann::json::parse(R"([{"occurrence":0,"global":2,"count":1,"local":0},
      {"occurrence":1,"global":8,"count":2,"local":1},{"occurrence":2,"global":15,"count":2,"local":3}])"));
  // Fig. 8: the same tables; the pseudo-active elements are skipped.
  const auto fig8 = run_command(redist("holes -P 4 --block 5 --stride 3 --offset 28 -n 30 --json"));
  ASSERT_EQ(fig8.status, 0) << fig8.err;
  const auto json = nlohmann::json::parse(fig8.out);
  EXPECT_EQ(json["local_array"], nlohmann::json::parse("[4,5,11,12,18,24,25]"));
  EXPECT_EQ(json["class_table"][2]["first"], 3);
}

TEST(HolesCommand, TextLooksLikeThePaper) {
  const auto result = run_command(redist("holes -P 4 --block 5 --stride 3 --offset 1 -n 40 --rank 0"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("N_c = 3 classes, A_c = 5"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("     2      3      4      2\n"), std::string::npos) << result.out;  // class 2
  EXPECT_NE(result.out.find("A_ptn = 20"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("         2       13        2        3\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("A^p0 = (0, 1, 7, 13, 14, 20, 21, 27, 33, 34)\n"), std::string::npos) << result.out;
}

// Each bad input gives exactly one line on stderr, nothing on stdout, and a non-zero status.
class BadHolesInput : public ::testing::TestWithParam<const char*> {};

TEST_P(BadHolesInput, OneClearErrorLine) {
  const auto result = run_command(redist(GetParam()));
  test::expect_one_error_line(result);
}

INSTANTIATE_TEST_SUITE_P(
    Holes, BadHolesInput,
    ::testing::Values("holes -P 0 --block 5 --stride 3 -n 40", "holes -P 4 --block 0 --stride 3 -n 40",
                      "holes -P 4 --block 5 --stride 0 -n 40", "holes -P 4 --block 5 --stride -3 -n 40",
                      "holes -P 4 --block 5 --stride 3 -n 0", "holes -P 4 --block 5 --stride 3 -n -40",
                      "holes -P 4 --block 5 --stride 3 --offset -1 -n 40", "holes -P 4 --block 5 --stride 3 -n 40 --rank 4",
                      "holes -P 4 --block 5 --stride 3 -n 40 --rank -1", "holes -P four --block 5 --stride 3 -n 40",
                      "holes -P 4 --block 5 --stride 3 -n 4.5", "holes -P 4 --block 5 --stride 3 -n 99999999999999999999",
                      "holes -P 4 --block 5 --stride 4000000000000000000 -n 40",
                      "holes -P 4000000000 --block 4000000000 --stride 3 -n 40",
                      "holes -P 4 --block 2 --stride 268435457 -n 40", "holes -P 1 --block 5 --stride 1 -n 4000000000",
                      "holes --block 5 --stride 3 -n 40", "holes -P 4 --block 5 --stride 3 -n 40 --bogus"));

TEST(HolesCommand, ErrorsNameTheProblem) {
  EXPECT_NE(run_command(redist("holes -P 4 --block 5 --stride 3 -n 40 --rank 4")).err.find("--rank 4 is outside [0, 4)"),
            std::string::npos);
  EXPECT_NE(run_command(redist("holes -P 4 --block 5 --stride 4000000000000000000 -n 40")).err.find("overflows"),
            std::string::npos);
  EXPECT_NE(run_command(redist("holes -P 4 --block 0 --stride 3 -n 40")).err.find("--block (block size) must be a positive integer (got 0)"),
            std::string::npos);
}

}  // namespace
}  // namespace redist
