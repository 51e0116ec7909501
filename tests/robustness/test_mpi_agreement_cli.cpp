// Ranks that agree (redist-mpi): an MPMD launch (mpirun with ':'-separated app contexts) in which one
// rank's arguments are bad or different makes every rank print the same one line naming the first
// rank at fault and exit non-zero — never a hang (every launch runs under `timeout`).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "../run_command.hpp"

namespace redist::test {
namespace {

const std::string kEnv =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
    "ASAN_OPTIONS=detect_leaks=0 ";

// One app context per entry: {ranks, arguments}.
CommandResult mpmd(const std::vector<std::pair<int, std::string>>& contexts) {
  std::string command = kEnv + "timeout 60 " REDIST_MPIRUN;
  for (std::size_t k = 0; k < contexts.size(); ++k) {
    command += std::string(k > 0 ? " :" : "") + " -np " + std::to_string(contexts[k].first) + " " REDIST_MPI_BIN " " +
               contexts[k].second;
  }
  return run_command(command);
}

std::vector<std::string> error_lines(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("redist-mpi: error: ", 0) == 0) lines.push_back(line);
  }
  return lines;
}

// The run failed on all `ranks` ranks together (none left waiting), and rank 0 alone printed
// `expected` (a prefix of the line): one line, whatever the number of ranks.
void expect_one_line_for_all_ranks(const CommandResult& r, int ranks, const std::string& expected) {
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.status, 124) << "timed out: a rank was left waiting, of " << ranks;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const auto lines = error_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines.front().rfind("redist-mpi: error: " + expected, 0), 0u) << lines.front();
}

const std::string kRun = "run -P 3 -r 3 -Q 3 -s 5 -N 1000";
const std::string kDiffer = "the ranks were given different arguments (rank ";

TEST(MpiAgreementCli, SameArgumentsEverywhereRun) {
  const auto r = mpmd({{2, kRun}, {1, kRun + " --schedule async --indexing default"}});
  // Explicit defaults are still different arguments: the check compares what was given.
  expect_one_line_for_all_ranks(r, 3, kDiffer + "2 differs from rank 0;");
  const auto same = mpmd({{2, kRun + " --json"}, {1, "run --json -N 1000 -s 5 -Q 3 -r 3 -P 3"}});  // any order
  EXPECT_EQ(same.status, 0) << same.err;
}

TEST(MpiAgreementCli, MalformedNumberOnOneRank) {
  expect_one_line_for_all_ranks(mpmd({{2, kRun}, {1, "run -P 3 -r 3 -Q 3 -s 5 -N abc"}}), 3, "rank 2: ");
}

TEST(MpiAgreementCli, MissingOptionOnOneRank) {
  expect_one_line_for_all_ranks(mpmd({{1, kRun}, {1, "run -P 3 -r 3 -Q 3 -s 5"}, {1, kRun}}), 3, kDiffer + "1 differs");
}

TEST(MpiAgreementCli, ZeroBlockOnOneRank) {
  expect_one_line_for_all_ranks(mpmd({{2, kRun}, {1, "run -P 3 -r 0 -Q 3 -s 5 -N 1000"}}), 3, kDiffer + "2 differs");
}

TEST(MpiAgreementCli, AnotherRepeatOnOneRank) {
  expect_one_line_for_all_ranks(mpmd({{1, kRun}, {2, kRun + " --repeat 2"}}), 3, kDiffer + "1 differs");
}

TEST(MpiAgreementCli, ReferenceOnOneRank) {
  expect_one_line_for_all_ranks(mpmd({{2, kRun}, {1, kRun + " --reference pdgemr2d"}}), 3, kDiffer + "2 differs");
}

TEST(MpiAgreementCli, AnotherSubcommandOnOneRank) {
  expect_one_line_for_all_ranks(mpmd({{2, kRun}, {1, "pingpong"}}), 3, kDiffer + "2 differs");
}

TEST(MpiAgreementCli, UnknownOptionOnTheFirstRank) {
  expect_one_line_for_all_ranks(mpmd({{1, kRun + " --fast"}, {2, kRun}}), 3, "rank 0: ");
}

TEST(MpiAgreementCli, MemoryBeyondTheLimitIsRefusedOnEveryRank) {
  // 1000 source and 1000 destination elements over the 3 ranks, 8 + 2 x 8 bytes each: 48000 bytes.
  const auto r = mpmd({{3, kRun + " --max-memory 1000"}});
  expect_one_line_for_all_ranks(r, 3, "rank 0: this node (3 ranks) needs about 46.9 KiB (48000 bytes) of memory, "
                                       "more than the 1000.0 B available (--max-memory)");
  EXPECT_EQ(mpmd({{3, kRun + " --max-memory 48000"}}).status, 0);
}

// Elements of 2^63 - 1 bytes: the memory they need is counted without overflow and refused, once,
// where it once wrapped around and every rank ran out of memory.
TEST(MpiAgreementCli, ElementSizeBeyondMemoryIsRefusedOnce) {
  expect_one_line_for_all_ranks(mpmd({{3, kRun + " --elem-bytes 9223372036854775807"}}), 3,
                                "rank 0: this node (3 ranks) needs more than 2^64 bytes of memory, more than the ");
}

// A machine model that is a device or a directory is refused before anything reads it: /dev/zero
// was once read without end on every rank.
TEST(MpiAgreementCli, ModelThatIsNoRegularFileIsRefusedOnce) {
  expect_one_line_for_all_ranks(mpmd({{3, kRun + " --indexing auto --model /dev/zero"}}), 3,
                                "rank 0: --model /dev/zero: not a regular file (a machine model is the .model.json "
                                "file `redist calibrate` writes)");
}

}  // namespace
}  // namespace redist::test
