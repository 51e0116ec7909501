// Sweeps run as batch job arrays. `redist sweep --shard K/N` runs one slice, `redist merge`
// writes exactly the files of the unsharded sweep, and refuses slices that do not make one sweep;
// `--resume` runs only what an interrupted sweep left.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.hpp"
#include "temp_dir.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;
using test::run_command;

const std::string kSource = REDIST_SOURCE_DIR;
const std::string kSweep = kSource + "/scenarios/sweeps/paragon-block-sizes.yaml";  // 8 x 8 = 64 points
const std::string kName = "sweep-paragon-block-sizes";
// A 4 x 4 sweep that runs in moments, for the refusals and the resume.
const std::string kSmallName = "sweep-small";
const std::string kSmallSweep = R"(scenario: sweep-small
description: A small sweep for the tests.
platform: paragon.xml
experiment: redistribute
fixed: {P: 4, Q: 4, N: 4096, elem_bytes: 8}
sweep: {r: [1, 2, 3, 4], s: [1, 2, 3, 4]}
methods: [{name: async, schedule: async}]
phases: [comm, total]
unit: ms
)";

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

class SweepShards : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(small) << kSmallSweep; }

  // Runs `redist sweep` on `sweep_file` into root/out with the extra arguments (and environment
  // assignments `env`); returns the status.
  int sweep(const std::string& out, const std::string& extra, const std::string& sweep_file = kSweep,
            const std::string& env = "") {
    const auto result =
        run_command(env + redist("sweep " + sweep_file + " --no-plot --out " + (root / out).string() + " " + extra));
    EXPECT_EQ(result.err.find("error"), std::string::npos) << result.err;
    return result.status;
  }
  std::string folders(std::initializer_list<const char*> names) const {
    std::string out;
    for (const char* n : names) out += (root / n).string() + " ";
    return out;
  }
  void expect_same_reports(const std::string& a, const std::string& b, const std::string& name) const {
    for (const char* ext : {".md", ".csv", ".json"}) {
      EXPECT_EQ(test::slurp(root / a / (name + ext)), test::slurp(root / b / (name + ext))) << ext;
    }
  }
  const test::TempDir dir{"redist-test-shards"};  // removed with the fixture
  const fs::path root = dir.path(), small = root / "small.yaml";
};

TEST_F(SweepShards, FourSlicesMergeIntoTheFilesOfTheUnshardedSweep) {
  ASSERT_EQ(sweep("full", "--jobs 2"), 0);
  for (int k = 0; k < 4; ++k) {
    const std::string slice = "s" + std::to_string(k);
    // Slice 2 as a Slurm array task would run it.
    ASSERT_EQ(k == 2 ? sweep(slice, "--shard auto/4", kSweep, "SLURM_ARRAY_TASK_ID=2 ")
                     : sweep(slice, "--shard " + std::to_string(k) + "/4"),
              0);
    EXPECT_TRUE(fs::exists(root / slice / (kName + ".shard-" + std::to_string(k) + "-of-4.json")));
    EXPECT_FALSE(fs::exists(root / slice / (kName + ".md"))) << "a slice writes no report";
  }
  const auto merged = run_command(redist("merge " + folders({"s0", "s1", "s2", "s3"}) + "--no-plot --out " +
                                         (root / "merged").string()));
  ASSERT_EQ(merged.status, 0) << merged.err;
  expect_same_reports("full", "merged", kName);
}

TEST_F(SweepShards, MergeRefusesMissingDuplicatedAndForeignSlices) {
  for (int k = 0; k < 2; ++k) ASSERT_EQ(sweep("s" + std::to_string(k), "--shard " + std::to_string(k) + "/2", small.string()), 0);
  // The same sweep's name with other contents: a slice of a different sweep.
  const fs::path other = root / "other.yaml";
  std::ofstream(other) << kSmallSweep << "# changed\n";
  ASSERT_EQ(sweep("foreign", "--shard 1/2", other.string()), 0);
  const auto merge = [&](const std::string& dirs) {
    return run_command(redist("merge " + dirs + "--no-plot --out " + (root / "merged").string()));
  };
  const auto missing = merge(folders({"s0"}));
  EXPECT_NE(missing.status, 0);
  EXPECT_EQ(missing.err, "redist: error: merge: " + kSmallName + ": slice 1 of 2 is missing\n");
  const auto twice = merge(folders({"s0", "s1", "s1"}));
  EXPECT_NE(twice.status, 0);
  EXPECT_NE(twice.err.find("slice 1 of 2 appears twice"), std::string::npos) << twice.err;
  const auto foreign = merge(folders({"s0", "foreign"}));
  EXPECT_NE(foreign.status, 0);
  EXPECT_NE(foreign.err.find("are slices of different sweeps named " + kSmallName), std::string::npos) << foreign.err;
  // A slice whose result lines are not its own runs (edited, or of another N).
  fs::create_directories(root / "edited");
  auto edited = nlohmann::json::parse(test::slurp(root / "s1" / (kSmallName + ".shard-1-of-2.json")));
  edited["lines"][0]["job"] = 0;  // an even job, in slice 0
  std::ofstream(root / "edited" / (kSmallName + ".shard-1-of-2.json")) << edited.dump();
  const auto alien = merge(folders({"s0", "edited"}));
  EXPECT_NE(alien.status, 0);
  EXPECT_NE(alien.err.find("is not a slice of a sweep: 'lines[0].job' is 0 (slice 1 of 2 runs jobs 1, 3, ...)"),
            std::string::npos)
      << alien.err;
  for (const auto* r : {&missing, &twice, &foreign, &alien}) {
    EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
  }
  EXPECT_FALSE(fs::exists(root / "merged" / (kSmallName + ".md")));
  const auto bad = run_command(redist("sweep " + small.string() + " --shard 4/4 --out " + (root / "bad").string()));
  EXPECT_EQ(bad.err, "redist: error: the slice K of --shard K/4 must be a whole number from 0 to 3, got '4'\n");
  const auto no_task = run_command("env -u SLURM_ARRAY_TASK_ID " + redist("sweep " + small.string() + " --shard auto/4 --out " +
                                                                          (root / "bad").string()));
  EXPECT_EQ(no_task.err, "redist: error: --shard auto/N reads SLURM_ARRAY_TASK_ID, which is not set\n");
}

// An interrupted sweep left the results of a quarter of its runs in its journal: --resume runs the
// other 12 and writes the same files as an uninterrupted sweep.
TEST_F(SweepShards, ResumeRunsOnlyWhatTheJournalLacks) {
  ASSERT_EQ(sweep("full", "--jobs 2", small.string()), 0);
  EXPECT_FALSE(fs::exists(root / "full" / ("." + kSmallName + ".journal"))) << "a finished sweep keeps no journal";
  ASSERT_EQ(sweep("slice", "--shard 0/4", small.string()), 0);
  const auto slice = nlohmann::json::parse(test::slurp(root / "slice" / (kSmallName + ".shard-0-of-4.json")));
  fs::create_directories(root / "resumed");
  {
    std::ofstream journal(root / "resumed" / ("." + kSmallName + ".journal"));
    journal << slice["fingerprint"].get<std::string>() << '\n';
    for (const auto& line : slice["lines"]) journal << line.dump() << '\n';
    journal << R"({"job":1,"pha)";  // cut short by the stop
  }
  const auto resumed = run_command(redist("sweep " + small.string() + " --no-plot --resume --progress-seconds 0 --out " +
                                          (root / "resumed").string()));
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find(kSmallName + ": 12/12 runs"), std::string::npos) << resumed.err;
  expect_same_reports("full", "resumed", kSmallName);
}

}  // namespace
}  // namespace redist
