// Paper 002 on the simulator: the `sra` experiment moves real, verified data on the Linux-cluster
// model; phantom runs time the same; a reduced table 1 shows the paper's qualitative findings; and
// `redist sra` reports its phases as JSON and rejects bad input with one error line.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "redist/experiments/experiments.hpp"
#include "redist/symmetric/symmetric_counts.hpp"
#include "run_command.hpp"

namespace redist {
namespace {

const std::string kSource = REDIST_SOURCE_DIR;
const std::string kCluster = kSource + "/platforms/linux-fe-2003.xml";

sim::ExperimentResult run(const Params& params, Payload payload) {
  return sim::find_experiment("sra").run(kCluster, params, payload, "");
}

// Paper 002's Figure 1 case, BC(BLOCK,*) -> BC(2,*) of a 12 x 12 matrix over 3 processors, by TR:
// every rank holds 4 x 12 = 48 elements and ends with 48. With `work: paper` the listing's owner
// k = (global_row / y) % numproc, two divisions, is computed for each of the 48 elements packed
// and each of the 48 unpacked: 2 x (48 + 48) = 192 index operations more on every rank.
TEST(SraExperiment, PaperWorkCountsTheListingsOwnerDivisionsPerElement) {
  Params params = {{"n", 12}, {"P", 3}, {"x", "block"}, {"y", 2}, {"method", "tr"}};
  const auto redist_work = run(params, Payload::Real);
  params["work"] = "paper";
  const auto paper_work = run(params, Payload::Real);
  ASSERT_TRUE(paper_work.verified.has_value() && *paper_work.verified);
  const double index_op = 2.639e-08;  // cost.index_op of platforms/linux-fe-2003.xml
  EXPECT_NEAR(paper_work.phases.comp - redist_work.phases.comp, 192 * index_op, 1e-12);
  EXPECT_DOUBLE_EQ(paper_work.phases.comm, redist_work.phases.comm);
  params["work"] = "fast";
  EXPECT_THROW(run(params, Payload::Real), std::invalid_argument);
}

TEST(SraExperiment, RealRunsVerifyAndSendWhatLemma3Leaves) {
  for (const char* orientation : {"row", "column"}) {
    for (const char* method : {"tr", "sra"}) {
      const Params params = {{"n", 53}, {"P", 4}, {"x", 3}, {"y", 2}, {"method", method}, {"orientation", orientation}};
      const auto result = run(params, Payload::Real);
      ASSERT_TRUE(result.verified.has_value());
      EXPECT_TRUE(*result.verified) << orientation << ' ' << method;
      const SymmetricProblem problem{53, 4, 3, 2, orientation_from_name(orientation)};
      Index elements = 0, messages = 0;
      for (Index p = 0; p < 4; ++p) {
        for (Index q = 0; q < 4; ++q) {
          const Index e = message_elements(problem, symmetric_method_from_name(method), p, q);
          elements += e;
          messages += e > 0;
        }
      }
      EXPECT_EQ(result.bytes, elements * 4);  // single precision by default
      EXPECT_EQ(result.messages, messages);
      const auto& t = result.phases;
      // comp is the largest per-rank index + pack + unpack: between the largest part and the sum of maxima.
      EXPECT_LE(t.comp, t.index + t.pack + t.unpack + 1e-12);
      EXPECT_GE(t.comp, std::max({t.index, t.pack, t.unpack}));
      EXPECT_GT(t.comm, 0);
      EXPECT_LE(t.comm + t.index + t.pack, t.total + 1e-12);
    }
  }
}

TEST(SraExperiment, PhantomRunTimesLikeTheRealOne) {
  const Params params = {{"n", 240}, {"P", 6}, {"x", "block"}, {"y", "cyclic"}, {"method", "sra"}};
  const auto real = run(params, Payload::Real), phantom = run(params, Payload::Phantom);
  EXPECT_EQ(real.phases, phantom.phases);
  EXPECT_EQ(real.bytes, phantom.bytes);
  EXPECT_FALSE(phantom.verified.has_value());
  EXPECT_TRUE(phantom.phantom);
  // Lemma 3's share, exact here (P·x = 6·40 = n), and what was sent, in closed form.
  EXPECT_DOUBLE_EQ(real.quantities.at("sra_avoided_share"), 1.0 / 6);
  EXPECT_EQ(real.quantities.at("elements_sent") * 4, static_cast<double>(real.bytes));
  // BLOCK -> CYCLIC: processor p's rows 40p..40p+39 include 7 with row mod 6 = p, which stay; the other
  // 33 go, each without the 40 columns whose twins their destination holds.
  EXPECT_EQ(real.quantities.at("D"), 33.0 * (240 - 40));
}

// Table 1 reduced to 100 rows per processor (the paper has 500) and P = 3, 6, 9.
TEST(SraExperiment, ReducedTable1ShowsThePapersFindings) {
  double previous_gain = 0;
  for (Index P : {3, 6, 9}) {
    std::map<std::string, Phases> t;
    for (const char* method : {"tr", "sra"}) {
      const Params params = {{"rows_per_proc", 100}, {"P", P}, {"x", "block"}, {"y", "cyclic"}, {"method", method}};
      t[method] = run(params, Payload::Phantom).phases;
    }
    EXPECT_GT(t["sra"].comp, t["tr"].comp) << "P=" << P;
    EXPECT_LT(t["sra"].comm, t["tr"].comm) << "P=" << P;
    EXPECT_LT(t["sra"].total, t["tr"].total) << "P=" << P;
    const double gain = t["tr"].total / t["sra"].total;
    if (previous_gain > 0) {
      EXPECT_LT(gain, previous_gain) << "P=" << P;
    }
    previous_gain = gain;
  }
}

TEST(SraExperiment, BadParametersAreRejected) {
  const auto& spec = sim::find_experiment("sra").spec;
  EXPECT_THROW(spec.check_value("x", "blocky"), std::invalid_argument);
  EXPECT_THROW(spec.check_value("x", 0), std::invalid_argument);
  EXPECT_THROW(spec.check_value("P", -1), std::invalid_argument);
  EXPECT_THROW(spec.check_value("method", "fast"), std::invalid_argument);
  EXPECT_THROW(spec.check_value("orientation", 3), std::invalid_argument);
  EXPECT_NO_THROW(spec.check_value("y", "cyclic"));
  // n and rows_per_proc together, or neither.
  EXPECT_THROW(run({{"n", 10}, {"rows_per_proc", 5}, {"P", 2}, {"x", 1}, {"y", 1}}, Payload::Real),
               std::invalid_argument);
  EXPECT_THROW(run({{"P", 2}, {"x", 1}, {"y", 1}}, Payload::Real), std::invalid_argument);
}

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

TEST(SraCommand, JsonReportsThePhasesAndVerifies) {
  nlohmann::ordered_json by_method;
  for (const char* method : {"tr", "sra"}) {
    const std::string command = redist("sra --platform " + kCluster + " -n 300 -P 3 -x block -y cyclic --json --method " + method);
    const auto result = test::run_command(command);
    ASSERT_EQ(result.status, 0) << result.err;
    EXPECT_TRUE(result.err.empty()) << result.err;
    const auto json = nlohmann::ordered_json::parse(result.out);
    EXPECT_EQ(json["platform"], "linux-fe-2003");
    EXPECT_EQ(json["n"], 300);
    EXPECT_EQ(json["x"], "block");
    EXPECT_EQ(json["verified"], true);
    for (const char* phase : {"index", "pack", "comm", "unpack", "comp", "total"}) {
      EXPECT_GT(json["phases"][phase].get<double>(), 0) << phase;
    }
    EXPECT_DOUBLE_EQ(json["quantities"]["sra_avoided_share"].get<double>(), 1.0 / 3);
    EXPECT_EQ(test::run_command(command).out, result.out);  // deterministic
    by_method[method] = json;
  }
  // Lemma 3 with P·x dividing n: SRA sends exactly (P-1)/P of TR's bytes.
  EXPECT_EQ(by_method["sra"]["bytes"].get<Index>() * 3, by_method["tr"]["bytes"].get<Index>() * 2);
}

class BadSraInput : public ::testing::TestWithParam<std::string> {};

TEST_P(BadSraInput, OneClearErrorLine) { test::expect_one_error_line(test::run_command(redist(GetParam()))); }

const std::string kPlatform = "sra --platform " + kCluster;
INSTANTIATE_TEST_SUITE_P(
    Sra, BadSraInput,
    ::testing::Values(kPlatform + " -n 0 -P 3 -x 1 -y 1", kPlatform + " -n 10 -P 0 -x 1 -y 1",
                      kPlatform + " -n 10 -P 3 -x 0 -y 1", kPlatform + " -n 10 -P 3 -x 1 -y -2",
                      kPlatform + " -n 10 -P 3 -x abc -y 1", kPlatform + " -n 10 -P 3 -x 1",
                      kPlatform + " -n 10 -P 3 -x 1 -y 1 --method fast",
                      kPlatform + " -n 10 -P 3 -x 1 -y 1 --orientation diagonal",
                      kPlatform + " -n 10 -P 3 -x 1 -y 1 --elem-bytes 0",
                      kPlatform + " -n 4294967296 -P 3 -x 1 -y 1 --phantom",       // n² overflows
                      kPlatform + " -n 2000000000 -P 16 -x 1 -y 1 --phantom",      // too large to simulate
                      kPlatform + " -n 99999999999999999999 -P 3 -x 1 -y 1",      // not a 64-bit integer
                      kPlatform + " -n 10 -P 17 -x 1 -y 1",                       // 16 nodes
                      kPlatform + " -n 10 -P 3 -x 9223372036854775807 -y 1",      // x·P overflows
                      "sra --platform /nonexistent.xml -n 10 -P 3 -x 1 -y 1",
                      "sra --platform " + kSource + "/tests/data/platforms/malformed.xml -n 10 -P 2 -x 1 -y 1"));

}  // namespace
}  // namespace redist
