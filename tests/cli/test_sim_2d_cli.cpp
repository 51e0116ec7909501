// The simulator asked what real programs ask: `redist simulate` and `redist explain` take the 2-D
// layouts `redist-mpi run` takes (ScaLAPACK descriptors), and more (storage order, submatrices).
// The twelve benchmark pairs (redist/layout/benchmark_pairs.hpp) run through the simulator, every
// element verified, through `explain`, and through the MPI path, which must move the same bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "redist/layout/benchmark_pairs.hpp"
#include "run_command.hpp"

namespace redist {
namespace {

using test::run_command;

const std::string kPlatform = std::string(REDIST_SOURCE_DIR) + "/platforms/modern-100g.xml";

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

std::string pair_flags(const ScalapackDescriptor& d, const char* side) {
  return std::string(" --") + side + "-grid " + std::to_string(d.grid_rows) + "x" + std::to_string(d.grid_cols) +
         " --" + side + "-block " + std::to_string(d.row_block) + "x" + std::to_string(d.col_block) + " --" + side +
         "-first " + std::to_string(d.first_row) + "," + std::to_string(d.first_col);
}

std::string layout_flags(const DescriptorPair& pair) {
  return "--rows " + std::to_string(pair.from.rows) + " --cols " + std::to_string(pair.from.cols) +
         pair_flags(pair.from, "src") + pair_flags(pair.to, "dst");
}

nlohmann::json json_of(const std::string& command) {
  const auto result = run_command(command);
  EXPECT_EQ(result.status, 0) << command << "\n" << result.err;
  EXPECT_TRUE(result.err.empty()) << command << "\n" << result.err;
  return result.status == 0 ? nlohmann::json::parse(result.out) : nlohmann::json::object();
}

TEST(Simulate2d, TheTwelveBenchmarkPairsRunVerifiedThroughSimulateExplainAndMpi) {
  const auto pairs = benchmark_pairs(4, 192, 160);
  ASSERT_EQ(pairs.size(), 12u);
  for (const DescriptorPair& pair : pairs) {
    SCOPED_TRACE(pair.name);
    const std::string flags = layout_flags(pair) + " --indexing prylli --schedule async";
    const auto simulated = json_of(redist("simulate --platform " + kPlatform + " " + flags + " --json"));
    EXPECT_EQ(simulated["verified"], true);
    EXPECT_EQ(simulated["P"], pair.from.processes());
    EXPECT_EQ(simulated["Q"], pair.to.processes());
    EXPECT_EQ(simulated["src"]["block"], nlohmann::json::array({pair.from.row_block, pair.from.col_block}));
    EXPECT_EQ(simulated["N"], 192 * 160);
    const auto explained = json_of(redist("explain --platform " + kPlatform + " " + layout_flags(pair) + " --json"));
    ASSERT_TRUE(explained.contains("candidates"));
    EXPECT_GE(explained["candidates"].size(), 3u);
    EXPECT_EQ(explained["dst"], simulated["dst"]);
#ifdef REDIST_MPI_BIN
    // The same layouts, method and schedule on MPI move the same bytes between distinct ranks.
    const auto measured = json_of(std::string(REDIST_MPIRUN) + " -np 4 " + REDIST_MPI_BIN + " run " + flags + " --json");
    EXPECT_EQ(measured["verified"], true);
    EXPECT_EQ(measured["bytes"], simulated["bytes"]);
    EXPECT_EQ(measured["src"], simulated["src"]);
#endif
  }
}

TEST(Simulate2d, SubmatricesAndRowMajorStorageMoveVerified) {
  const std::string whole = "--rows 300 --cols 200 --src-grid 2x3 --src-block 16x7 --src-first 1,2 --dst-grid 3x2 "
                            "--dst-block 5x40 ";
  const auto sub = json_of(redist("simulate --platform " + kPlatform + " " + whole +
                                  "--src-at 7,11 --dst-at 120,3 --sub 150x90 --dst-matrix 400x100 --json"));
  EXPECT_EQ(sub["verified"], true);
  EXPECT_EQ(sub["sub"], nlohmann::json::array({150, 90}));
  EXPECT_EQ(sub["src"]["at"], nlohmann::json::array({7, 11}));
  EXPECT_EQ(sub["dst"]["matrix"], nlohmann::json::array({400, 100}));
  EXPECT_EQ(sub["indexing"], "submatrix");
  // Only the submatrix moves: 150 x 90 doubles at most, some kept on their rank.
  EXPECT_GT(sub["bytes"].get<long>(), 0);
  EXPECT_LE(sub["bytes"].get<long>(), 150 * 90 * 8);
  const auto rows = json_of(redist("simulate --platform " + kPlatform + " " + whole +
                                   "--src-order row-major --indexing pitfalls --schedule caterpillar --json"));
  EXPECT_EQ(rows["verified"], true);
  EXPECT_EQ(rows["src"]["order"], "row-major");
  const std::string command = redist("simulate --platform " + kPlatform + " " + whole + "--sub 10x10 --json");
  EXPECT_EQ(run_command(command).out, run_command(command).out) << "not deterministic";
}

// A sweep over grids and block sizes, named values only: its runs verified, its plot heatmaps.
TEST(Simulate2d, ASweepOverGridsAndBlocksRunsAndPlots) {
  const test::TempDir dir("redist-2d-sweep");
  std::ofstream(dir / "grids.yaml") << "scenario: grids\nplatform: modern-100g.xml\nexperiment: redistribute\n"
                                       "fixed: {rows: 64, cols: 48, indexing: prylli}\n"
                                       "sweep:\n  src_grid: [2x2, 1x4]\n  dst_grid: [4x1, 2x2, 1x2]\n"
                                       "  src_block: [8x8, 3x5]\n  dst_block: [4x4, 16x1]\n"
                                       "methods:\n  - name: async\n    schedule: async\nphases: [comm, total]\n";
  const auto result = run_command(redist("sweep " + (dir / "grids.yaml").string() + " --out " + (dir / "out").string()));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::json::parse(test::slurp(dir / "out" / "grids.json"));
  const auto& records = json["records"];
  EXPECT_EQ(records.size(), 2u * 3u * 2u * 2u * 2u);  // layouts x phases
  for (const auto& r : records) EXPECT_GT(r["simulated"].get<double>(), 0) << r.dump();
  EXPECT_GT(std::filesystem::file_size(dir / "out" / "grids.png"), 10000u);
}

TEST(Simulate2d, BadTwoDimensionalRequestsAreRefusedInOneLine) {
  const std::string base = "simulate --platform " + kPlatform + " --rows 64 --cols 64 --src-grid 2x2 --src-block 8x8 ";
  const struct {
    std::string args, message;
  } cases[] = {
      {"--dst-grid 2x2", "redist: error: parameter 'dst_block' is not set: a 2-D run needs rows, cols, src_grid, "
                         "src_block, dst_grid and dst_block\n"},
      {"--dst-grid 2x2 --dst-block 4x4 -P 4", "redist: error: parameters P and rows: a run is 1-D (P, r, Q, s, N) or "
                                              "2-D (rows, cols, src_grid, src_block, dst_grid and dst_block, ...), "
                                              "not both\n"},
      {"--dst-grid 2x2 --dst-block 4", "redist: error: --dst-block: parameter 'dst_block' must be AxB of two positive "
                                       "whole numbers, got 4\n"},
      {"--dst-grid 2x2 --dst-block 4x4 --dst-first 2,0",
       "redist: error: destination: first process row 2 is outside a grid extent of 2\n"},
      {"--dst-grid 2x2 --dst-block 4x4 --src-at 60,1 --sub 10x10",
       "redist: error: source: rows 60-69 x columns 1-10 lie outside its 64 x 64 matrix\n"},
      {"--dst-grid 2x2 --dst-block 4x4 --sub 10x10 --dst-order row-major",
       "redist: error: a submatrix copy is ScaLAPACK's: its local storage is column-major (row-major applies to whole "
       "matrices)\n"},
      {"--dst-grid 2x2 --dst-block 4x4 --sub 10x10 --schedule caterpillar",
       "redist: error: parameter 'schedule': a submatrix copy (sub, src_at or dst_at) runs redist's submatrix plan and "
       "the default exchange, as the ScaLAPACK drop-in does; indexing, schedule, relabel, sources and work choose "
       "among redist's ways of moving whole matrices\n"},
  };
  for (const auto& c : cases) {
    const auto result = run_command(redist(base + c.args));
    EXPECT_EQ(result.status, 1) << c.args;
    EXPECT_EQ(result.err, c.message) << c.args;
    EXPECT_TRUE(result.out.empty()) << c.args;
  }
  const auto explain = run_command(redist("explain --platform " + kPlatform +
                                          " --rows 64 --cols 64 --src-grid 2x2 --src-block 8x8 --dst-grid 2x2 "
                                          "--dst-block 4x4 --sub 10x10"));
  EXPECT_EQ(explain.status, 1);
  EXPECT_EQ(explain.err, "redist: error: explain prices whole matrices, as auto does: a submatrix copy (sub, src_at, "
                         "dst_at) runs redist's submatrix plan alone (redist simulate simulates it)\n");
}

}  // namespace
}  // namespace redist
