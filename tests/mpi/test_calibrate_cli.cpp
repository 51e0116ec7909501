// `redist calibrate` and `redist validate` (they run redist-mpi under mpirun): a calibration writes
// a platform the simulator loads, with its fits kept in the file; validation reports a ratio per
// case; bad arguments give one error line.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../run_command.hpp"

namespace redist::test {
namespace {

const std::string kEnv =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
    "ASAN_OPTIONS=detect_leaks=0 ";  // Open MPI keeps what MPI_Init allocates

std::string redist(const std::string& args) { return kEnv + "timeout 300 " REDIST_BIN " " + args; }

TEST(Calibrate, WritesAPlatformTheSimulatorRunsAndValidateComparesWithIt) {
  const auto platform = std::filesystem::temp_directory_path() / ("redist-calibrated-" + std::to_string(::getpid()) + ".xml");
  const auto calibrated = run_command(redist("calibrate --max-bytes 65536 --seconds-per-size 0.002 --cores 2 --out " +
                                             platform.string()));
  ASSERT_EQ(calibrated.status, 0) << calibrated.err;
  EXPECT_NE(calibrated.out.find("piece from 0 B: latency"), std::string::npos) << calibrated.out;
  const std::string xml = slurp(platform);
  for (const char* part : {"cost.byte_copied", "cost.run_copied", "cost.index_op", "node-1", "residual",
                           "<link id=\"memory\""}) {
    EXPECT_NE(xml.find(part), std::string::npos) << part;
  }
  const auto simulated = run_command(redist("simulate --platform " + platform.string() +
                                            " -P 2 -r 3 -Q 2 -s 6 -N 10000 --indexing krr --json"));
  ASSERT_EQ(simulated.status, 0) << simulated.err;
  EXPECT_EQ(nlohmann::json::parse(simulated.out).at("verified"), true);

  const auto validated = run_command(redist("validate --quick --repeat 1 --json --platform " + platform.string()));
  ASSERT_EQ(validated.status, 0) << validated.err;
  const auto json = nlohmann::json::parse(validated.out);
  ASSERT_EQ(json.at("cases").size(), 3u);
  for (const auto& c : json.at("cases")) {
    EXPECT_GT(c.at("measured").get<double>(), 0);
    EXPECT_GT(c.at("simulated").get<double>(), 0);
    EXPECT_DOUBLE_EQ(c.at("ratio").get<double>(), c.at("simulated").get<double>() / c.at("measured").get<double>());
  }
  EXPECT_GE(json.at("median_relative_error").get<double>(), 0);
  std::filesystem::remove(platform);
}

TEST(Calibrate, BadArgumentsGiveOneErrorLine) {
  expect_one_error_line(run_command(redist("calibrate")));
  expect_one_error_line(run_command(redist("calibrate --out /tmp/x.xml --max-bytes 0")));
  expect_one_error_line(run_command(redist("calibrate --out /tmp/x.xml --cores -2")));
  expect_one_error_line(run_command(redist("validate --platform /nonexistent.xml")));
  expect_one_error_line(run_command(redist("validate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml --repeat 0")));
}

}  // namespace
}  // namespace redist::test
