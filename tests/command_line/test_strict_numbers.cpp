// Numbers on the command line: decimal whole numbers (no octal, no hex, no wrapped negatives in
// unsigned options), finite numbers, the same in every command.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "redist/command_line/strict_numbers.hpp"

namespace redist::command_line {
namespace {

TEST(StrictNumbers, WholeNumbersAreDecimalDigits) {
  for (const auto& [given, read] : std::vector<std::pair<std::string, std::string>>{
           {"010", "10"}, {"0", "0"}, {"000", "0"}, {"-007", "-7"}, {"12345678901234", "12345678901234"}}) {
    std::string text = given;
    EXPECT_EQ(decimal_whole_number(text, true), "") << given;
    EXPECT_EQ(text, read) << given;
  }
  for (const char* bad : {"0x10", "1e3", "", "-", "+5", " 5", "5 ", "1.0", "0b1"}) {
    std::string text = bad;
    EXPECT_NE(decimal_whole_number(text, true), "") << bad;
  }
  std::string negative = "-5";
  EXPECT_EQ(decimal_whole_number(negative, false), "-5 is not a non-negative whole number in decimal digits");
  EXPECT_EQ(finite_number("2.5"), "");
  for (const char* bad : {"nan", "inf", "-inf", "1e999", "x"}) EXPECT_NE(finite_number(bad), "") << bad;
}

TEST(StrictNumbers, EveryNumericOptionOfEverySubcommandReadsSo) {
  CLI::App app;
  std::int64_t count = 0;
  std::uint64_t bytes = 0;
  double seconds = 0;
  std::string name;
  auto* sub = app.add_subcommand("run");
  sub->add_option("-N", count)->check(CLI::Range(std::int64_t{-100}, std::int64_t{100}));  // checks keep working
  sub->add_option("--bytes", bytes)->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  sub->add_option("--seconds", seconds)->check(CLI::Range(0.0, 10.0));
  sub->add_option("--name", name);
  read_numbers_strictly(app);
  const auto parse = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    app.parse(args);
  };
  parse({"-N", "010", "--bytes", "0020", "--seconds", "1.5", "--name", "010"});
  EXPECT_EQ(count, 10);
  EXPECT_EQ(bytes, 20u);
  EXPECT_EQ(seconds, 1.5);
  EXPECT_EQ(name, "010");  // text stays text
  EXPECT_THROW(parse({"-N", "0x10"}), CLI::ValidationError);
  EXPECT_THROW(parse({"--bytes", "-5"}), CLI::ValidationError);
  EXPECT_THROW(parse({"--seconds", "nan"}), CLI::ValidationError);
  EXPECT_THROW(parse({"-N", "0101"}), CLI::ValidationError);  // 101: out of the range, read as decimal
}

}  // namespace
}  // namespace redist::command_line
