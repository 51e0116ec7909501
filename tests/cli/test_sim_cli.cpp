// `redist simulate`, `redist replay` and `redist sweep` run as a user would.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "run_command.hpp"
#include "temp_dir.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;
using test::run_command;

const std::string kSource = REDIST_SOURCE_DIR;

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

std::string simulate(const std::string& platform, const std::string& extra) {
  return redist("simulate --platform " + platform + " -P 50 -r 10 -Q 40 -s 2 -N 100000 --elem-bytes 4 " + extra);
}

TEST(SimulateCommand, JsonHasTheDesignShapeAndVerifies) {
  const auto result = run_command(simulate(kSource + "/platforms/sp2.xml", "--json"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(result.err.empty()) << result.err;
  const auto json = nlohmann::ordered_json::parse(result.out);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  const std::vector<std::string> contract = {"platform", "P", "Q", "r", "s", "N", "phases", "messages", "bytes", "verified"};
  ASSERT_GE(keys.size(), contract.size());
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(contract.size())), contract);
  EXPECT_EQ(json["platform"], "sp2");
  EXPECT_EQ(json["verified"], true);
  for (const char* phase : {"index", "pack", "comm", "unpack", "total"}) EXPECT_GT(json["phases"][phase].get<double>(), 0) << phase;
  EXPECT_GT(json["messages"].get<long>(), 0);
}

TEST(SimulateCommand, SameCommandTwiceGivesByteIdenticalJson) {
  for (const char* schedule : {"async", "stepwise"}) {
    const std::string command = simulate(kSource + "/platforms/paragon.xml", std::string("--json --schedule ") + schedule);
    const auto first = run_command(command), second = run_command(command);
    ASSERT_EQ(first.status, 0) << first.err;
    EXPECT_EQ(first.out, second.out);
  }
}

TEST(SimulateCommand, PhantomRunGivesTheSameTimes) {
  const auto real = nlohmann::json::parse(run_command(simulate(kSource + "/platforms/cm5.xml", "--json")).out);
  const auto phantom = nlohmann::json::parse(run_command(simulate(kSource + "/platforms/cm5.xml", "--json --phantom")).out);
  EXPECT_EQ(real["phases"], phantom["phases"]);
  EXPECT_TRUE(phantom["verified"].is_null());
}

// --repeat K: one plan executed K times. The plan (index phase), the messages and the verification
// are those of a single run; the executions move the data K times, so their mean is reported.
TEST(SimulateCommand, RepeatExecutesOnePlanAndReportsItApart) {
  const auto once = nlohmann::json::parse(run_command(simulate(kSource + "/platforms/paragon.xml", "--json --indexing prylli")).out);
  const auto result = run_command(simulate(kSource + "/platforms/paragon.xml", "--json --indexing prylli --repeat 4"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto kept = nlohmann::json::parse(result.out);
  EXPECT_EQ(kept["repeat"], 4);
  EXPECT_FALSE(once.contains("repeat"));
  EXPECT_EQ(kept["verified"], true);
  EXPECT_EQ(kept["phases"]["index"], once["phases"]["index"]);
  EXPECT_EQ(kept["messages"], once["messages"]);
  EXPECT_EQ(kept["bytes"], once["bytes"]);
  // Each execution costs about what the single run's exchange did: a mean, not a sum of four.
  for (const char* phase : {"pack", "comm", "unpack", "total"}) {
    const double mean = kept["phases"][phase].get<double>(), single = once["phases"][phase].get<double>();
    EXPECT_GT(mean, 0.5 * single) << phase;
    EXPECT_LT(mean, 1.5 * single) << phase;
  }
  for (const char* bad : {"--repeat 0", "--repeat 1001", "--repeat x"}) {
    const auto refused = run_command(simulate(kSource + "/platforms/paragon.xml", bad));
    EXPECT_NE(refused.status, 0) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  }
}

// --relabel: destination processors moved to the ranks holding most of their data. Every element
// still verified; fewer bytes sent and more kept on their rank than the same run numbered as is.
TEST(SimulateCommand, RelabelKeepsMoreOnTheRanksAndSendsLess) {
  const std::string pair = "simulate --platform " + kSource + "/platforms/sp2.xml -P 8 -r 3 -Q 8 -s 5 -N 120000 --json ";
  const auto plain = nlohmann::json::parse(run_command(redist(pair)).out);
  EXPECT_FALSE(plain.contains("relabel"));
  for (const char* method : {"exact", "greedy"}) {
    const auto result = run_command(redist(pair + "--relabel " + method));
    ASSERT_EQ(result.status, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["verified"], true) << method;
    EXPECT_EQ(json["relabel"]["method"], method);
    const double kept = json["relabel"]["bytes_kept"], unrelabelled = json["relabel"]["bytes_kept_unrelabelled"];
    EXPECT_GT(kept, unrelabelled) << method;
    EXPECT_LT(json["bytes"].get<double>(), plain["bytes"].get<double>()) << method;
    // What is kept and what is sent add up to the array, relabelled or not.
    EXPECT_EQ(json["bytes"].get<double>() + kept, plain["bytes"].get<double>() + unrelabelled) << method;
  }
  for (const char* bad : {"--relabel best", "--relabel exact --placement disjoint"}) {
    const auto refused = run_command(redist(pair + bad));
    EXPECT_NE(refused.status, 0) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  }
}

TEST(SimulateCommand, TraceFileIsWritten) {
  const test::TempDir dir("redist-test-trace");
  const fs::path trace = dir / "run.paje";
  const auto result = run_command(redist("simulate --platform " + kSource +
                                         "/platforms/linux-fe-2003.xml -P 4 -r 3 -Q 4 -s 2 -N 1000 --trace " +
                                         trace.string()));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_GT(fs::file_size(trace), 0u);
}

class BadSimulateInput : public ::testing::TestWithParam<std::string> {};

TEST_P(BadSimulateInput, OneClearErrorLine) {
  const auto result = run_command(redist(GetParam()));
  test::expect_one_error_line(result);
}

const std::string kRun = " -P 4 -r 2 -Q 4 -s 3 -N 1000";
INSTANTIATE_TEST_SUITE_P(
    Simulate, BadSimulateInput,
    ::testing::Values("simulate --platform /nonexistent/platform.xml" + kRun,
                      "simulate --platform " + kSource + "/tests/data/platforms/malformed.xml" + kRun,
                      "simulate --platform " + kSource + "/tests/data/platforms/missing_price.xml -P 2 -r 2 -Q 2 -s 3 -N 100",
                      "simulate --platform " + kSource + "/platforms/linux-fe-2003.xml -P 17 -r 2 -Q 4 -s 3 -N 1000",
                      "simulate --platform " + kSource + "/platforms/sp2.xml -P 0 -r 2 -Q 4 -s 3 -N 1000",
                      "simulate --platform " + kSource + "/platforms/sp2.xml -P 4 -r 2 -Q 4 -s 3 -N -5",
                      "simulate --platform " + kSource + "/platforms/sp2.xml" + kRun + " --elem-bytes 0",
                      "simulate --platform " + kSource + "/platforms/sp2.xml" + kRun + " --indexing magic",
                      "simulate --platform " + kSource + "/platforms/sp2.xml" + kRun + " --schedule never",
                      "simulate --platform " + kSource + "/platforms/sp2.xml -P 4 -r 2 -Q 4 -s 3",
                      "simulate --platform " + kSource + "/platforms/sp2.xml -P 4 -r 2 -Q 4 -s 3 -N 99999999999999999999"));

TEST(ReplayCommand, WritesTheFourOutputs) {
  const test::TempDir dir("redist-test-replay");
  const fs::path out = dir / "out";
  const auto result = run_command(redist("replay " + kSource + "/scenarios/paper004-example1.yaml --out " + out.string()));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("| N |"), std::string::npos) << result.out;
  for (const char* ext : {".md", ".csv", ".json", ".png"}) {
    EXPECT_TRUE(fs::is_regular_file(out / (std::string("paper004-example1") + ext))) << ext;
  }
  const auto json = nlohmann::json::parse(test::slurp(out / "paper004-example1.json"));
  ASSERT_FALSE(json["records"].empty());
  for (const char* field : {"scenario", "paper", "table", "params", "method", "phase", "simulated", "published", "unit"}) {
    EXPECT_TRUE(json["records"][0].contains(field)) << field;
  }
}

// Paper 003's figure 9: no numbers, only claims, checked on the simulated values. Two scenarios
// through a pipe with two jobs: each report is printed once (forked workers must not repeat
// the parent's buffered output).
TEST(ReplayCommand, ChecksThePapersClaims) {
  const test::TempDir dir("redist-test-replay-claims");
  const fs::path out = dir / "out";
  const std::string scenarios = kSource + "/scenarios/paper003-fig9a.yaml " + kSource + "/scenarios/paper003-fig9b.yaml";
  const auto result = run_command(redist("replay " + scenarios + " --jobs 2 --no-plot --out " + out.string()));
  ASSERT_EQ(result.status, 0) << result.err;
  for (const std::string heading : {"## paper003-fig9a", "## paper003-fig9b"}) {
    const auto first = result.out.find(heading);
    ASSERT_NE(first, std::string::npos) << heading;
    EXPECT_EQ(result.out.find(heading, first + 1), std::string::npos) << heading << " printed twice";
  }
  for (const char* figure : {"paper003-fig9a", "paper003-fig9b"}) {
    const auto json = nlohmann::json::parse(test::slurp(out / (std::string(figure) + ".json")));
    std::map<std::string, bool> holds;
    for (const auto& c : json["metrics"]["claims"]) holds[c["claim"]] = c["holds"];
    SCOPED_TRACE(figure);
    ASSERT_EQ(holds.size(), 7u);
    for (const auto& [claim, held] : holds) {
      // Fig. 9(a)'s two misses, explained in its scenario file: with x varying, the active virtual
      // processors do not follow 1 / gcd(P·x, s); ours is stable, and its small variation follows
      // its class table (N_c entries) as much as its compression table (N_pb^p entries).
      const bool known_miss = std::string(figure) == "paper003-fig9a" &&
                              (claim == "ours follows N_pb^p = N_c / gcd(N_c, P)" ||
                               claim == "virtual-cyclic follows 1 / gcd(P*x, s)");
      EXPECT_EQ(held, !known_miss) << claim;
    }
  }
  const auto checked = run_command(redist("replay " + scenarios + " --check-claims --jobs 2 --no-plot --out " + out.string()));
  EXPECT_NE(checked.status, 0);
  EXPECT_EQ(checked.err, "redist: error: 2 claim(s) of the papers do not hold on the simulated values (see the reports)\n");
}

// What-if replays: the same scenario on another machine model; its claims are checked
// there and listed beside their status on the paper's own machine; the paper's numbers, measured on
// its own machine, are not compared.
TEST(ReplayCommand, WhatIfReplaysTheClaimsOnAnotherPlatform) {
  const test::TempDir dir("redist-test-what-if");
  const fs::path own = dir / "own", there = dir / "modern";
  const std::string scenario = kSource + "/scenarios/paper003-fig9b.yaml --no-plot";
  ASSERT_EQ(run_command(redist("replay " + scenario + " --out " + own.string())).status, 0);
  const auto result = run_command(redist("replay " + scenario + " --platform modern-100g.xml --beside " + own.string() +
                                         " --out " + there.string()));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto report = nlohmann::json::parse(test::slurp(there / "paper003-fig9b.json"));
  EXPECT_EQ(report["platform"], "modern-100g.xml");
  EXPECT_EQ(report["metrics"]["published_cells"], 0);
  const auto own_report = nlohmann::json::parse(test::slurp(own / "paper003-fig9b.json"));
  EXPECT_EQ(own_report["platform"], "alpha3000.xml");
  const std::string table = test::slurp(there / "CLAIMS.md");
  EXPECT_NE(result.out.find(table), std::string::npos) << "CLAIMS.md is printed";
  ASSERT_EQ(report["metrics"]["claims"].size(), own_report["metrics"]["claims"].size());
  for (std::size_t k = 0; k < report["metrics"]["claims"].size(); ++k) {
    const auto& here = report["metrics"]["claims"][k];
    const auto& home = own_report["metrics"]["claims"][k];
    const auto status = [](const nlohmann::json& c) { return c["holds"].get<bool>() ? "holds" : "FAILS"; };
    const std::string row = "| paper003-fig9b | alpha3000.xml | " + here["claim"].get<std::string>() + " | " +
                            status(home) + " | " + status(here) + " |";
    EXPECT_NE(table.find(row), std::string::npos) << row << "\n" << table;
  }
}

// A platform too small for an experiment (a calibrated machine of a few hosts, the Alpha's one)
// does not stop a what-if replay: the scenario is listed as not run there, with the reason.
TEST(ReplayCommand, WhatIfListsScenariosThePlatformCannotHoldAsNotRun) {
  const test::TempDir dir("redist-test-what-if-small");
  const fs::path out = dir / "out";
  const auto result = run_command(redist("replay " + kSource + "/scenarios/paper004-example1.yaml --no-plot " +
                                         "--platform alpha3000.xml --out " + out.string()));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.err.find("paper004-example1 not run on alpha3000.xml"), std::string::npos) << result.err;
  const std::string table = test::slurp(out / "CLAIMS.md");
  EXPECT_NE(table.find("| paper004-example1 | paragon.xml | the theoretical ratio 7/16"), std::string::npos) << table;
  EXPECT_NE(table.find("not run: paper004-example1: run "), std::string::npos) << table;
  EXPECT_NE(table.find("has 1 hosts, too few for 16 ranks"), std::string::npos) << table;
  EXPECT_NE(table.find("Claims holding on alpha3000.xml: 0/0 (2 more not run there)."), std::string::npos) << table;
}

TEST(ReplayCommand, WhatIfRefusesAMissingPlatformAndBesideAlone) {
  const test::TempDir dir("redist-test-what-if-bad");
  const fs::path out = dir / "out";
  const std::string scenario = kSource + "/scenarios/paper003-fig9b.yaml --no-plot --out " + out.string();
  const auto missing = run_command(redist("replay " + scenario + " --platform no-such-machine.xml"));
  EXPECT_NE(missing.status, 0);
  EXPECT_EQ(missing.err,
            "redist: error: platform file 'no-such-machine.xml' not found (looked in the current folder and in platforms/)\n");
  EXPECT_FALSE(fs::exists(out) && !fs::is_empty(out));
  const auto alone = run_command(redist("replay " + scenario + " --beside " + fs::temp_directory_path().string()));
  EXPECT_NE(alone.status, 0);
  EXPECT_EQ(alone.err, "redist: error: --beside requires --platform\n");
}

TEST(ReplayCommand, BadScenarioNamesFileAndLineAndWritesNothing) {
  const test::TempDir dir("redist-test-replay-bad");
  const fs::path out = dir / "out", bad = dir / "bad-scenario.yaml";
  std::ofstream(bad) << "scenario: bad\npaper: 004_8dd692a5076a3200.txt\ntable: x\nplatform: sp2.xml\n"
                        "experiment: redistribute\nfixed: {P: 4, Q: 4, r: 2, s: 3}\nsweep: {N: []}\n"
                        "methods: [{name: a}]\nphases: [comm]\n";
  // The good scenario is named first: nothing runs, not even it, when a later file is bad.
  const auto result = run_command(redist("replay " + kSource + "/scenarios/paper004-example1.yaml " + bad.string() +
                                         " --out " + out.string()));
  EXPECT_NE(result.status, 0);
  EXPECT_EQ(result.err, "redist: error: " + bad.string() + ":7: sweep 'N' is empty\n");
  EXPECT_FALSE(fs::exists(out) && !fs::is_empty(out));
}

TEST(SweepCommand, TwoJobsGiveByteIdenticalFiles) {
  const test::TempDir dir("redist-test-sweep");
  const fs::path one = dir / "jobs1", two = dir / "jobs2";
  const std::string sweep = kSource + "/scenarios/sweeps/paragon-block-sizes.yaml --no-plot";
  ASSERT_EQ(run_command(redist("sweep " + sweep + " --jobs 1 --out " + one.string())).status, 0);
  ASSERT_EQ(run_command(redist("sweep " + sweep + " --jobs 2 --out " + two.string())).status, 0);
  for (const char* ext : {".md", ".csv", ".json"}) {
    const std::string name = std::string("sweep-paragon-block-sizes") + ext;
    EXPECT_EQ(test::slurp(one / name), test::slurp(two / name)) << name;
  }
}

// A trace file that cannot be opened: SimGrid would crash (signal 11), so the path is checked
// before anything runs (os/atomic_file.hpp), and nothing is created.
TEST(SimulateCommand, UnwritableTraceIsOneErrorLineBeforeTheRun) {
  const test::TempDir dir("redist-test-trace-dir");
  const fs::path& directory = dir.path();
  const std::string missing = "/no/such/dir/t.paje";
  for (const std::string& trace : {missing, directory.string()}) {
    const auto result = run_command(simulate(kSource + "/platforms/sp2.xml", "--json --trace " + trace));
    test::expect_one_error_line(result);
    EXPECT_LT(result.status, 128) << "killed by signal " << result.status - 128;
    EXPECT_NE(result.err.find("cannot write " + trace + ": "), std::string::npos) << result.err;
  }
  EXPECT_FALSE(fs::exists("/no/such/dir"));
  EXPECT_TRUE(fs::is_empty(directory));
  for (const char* command : {"sra --platform PLATFORM -n 60 -P 3 -x block -y cyclic --trace ",
                              "pack --platform PLATFORM --shape 64 --grid 4 --block 4 --trace "}) {
    std::string line = command;
    line.replace(line.find("PLATFORM"), 8, kSource + "/platforms/cm5.xml");
    const auto result = run_command("timeout 60 " + redist(line + missing));
    test::expect_one_error_line(result);
    EXPECT_NE(result.err.find("cannot write " + missing + ": No such file or directory"), std::string::npos) << result.err;
  }
}

// A naive run too long to finish: N = 9e15 elements would run for ever without a word. It is refused at once
// (timeout: a regression would hang), naming the methods that finish; the same run by krr finishes.
TEST(SimulateCommand, NaiveRunThatCannotFinishIsRefusedNamingFasterMethods) {
  const std::string huge = "--platform " + kSource + "/platforms/sp2.xml -P 50 -r 10 -Q 40 -s 2 -N 9000000000000000 --phantom";
  const auto refused = run_command("timeout 60 " + redist("simulate " + huge + " --indexing naive"));
  test::expect_one_error_line(refused);
  EXPECT_EQ(refused.status, 1);
  // The refusal follows the naive method's time estimate (2N visits of 57 ns, 10 minutes at most).
  for (const char* text : {"N = 9000000000000000", "years of host time", "more than the 10 minutes allowed", "krr",
                           "pitfalls", "prylli"}) {
    EXPECT_NE(refused.err.find(text), std::string::npos) << text << " in " << refused.err;
  }
  const auto krr = run_command("timeout 120 " + redist("simulate " + huge + " --indexing krr --json"));
  ASSERT_EQ(krr.status, 0) << krr.err;
  EXPECT_GT(nlohmann::json::parse(krr.out).at("phases").at("total").get<double>(), 0);
}

TEST(Version, NamesRedistAndTheSimGridLibrary) {
  const auto result = run_command(redist("--version"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(result.err.empty()) << result.err;
  EXPECT_EQ(result.out.rfind("redist ", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("\nSimGrid 3."), std::string::npos) << result.out;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 2) << result.out;
}

// `redist explain`: every candidate predicted, the fastest chosen, and the prediction close to the
// simulator's own run of each candidate on a bundled platform.
TEST(ExplainCommand, PredictsEveryCandidateAndChoosesTheFastest) {
  const auto result = run_command(redist("explain --platform " + kSource +
                                         "/platforms/sp2.xml -P 4 -r 3 -Q 4 -s 5 -N 200000 --simulate --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  const auto& candidates = json["candidates"];
  ASSERT_EQ(candidates.size(), 3u * 4u * 3u);  // naive, pitfalls, prylli; four schedules; three relabellings
  double best = 1e300;
  std::string best_label;
  std::vector<double> errors;
  for (const auto& c : candidates) {
    const double predicted = c["predicted"]["total"];
    if (predicted < best) {
      best = predicted;
      best_label = c["indexing"].get<std::string>() + "/" + c["schedule"].get<std::string>() + "/" + c["relabel"].get<std::string>();
    }
    errors.push_back(std::abs(c["simulated_total"].get<double>() - predicted) / c["simulated_total"].get<double>());
  }
  EXPECT_EQ(json["choice"], best_label);
  std::sort(errors.begin(), errors.end());
  EXPECT_LT(errors[errors.size() / 2], 0.05);  // measured: 0.4% median, 6% at worst
  EXPECT_LT(errors.back(), 0.25);
  for (const char* bad : {"--indexing fast", "--relabel exact --placement disjoint", "-N 0", "-r -3", "--elem-bytes 0"}) {
    const auto refused = run_command(redist("explain --platform " + kSource + "/platforms/sp2.xml -P 4 -Q 4 -N 1000 " + bad));
    EXPECT_NE(refused.status, 0) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << bad << ": " << refused.err;
    const bool size = std::string(bad) == "-N 0" || std::string(bad) == "-r -3" || std::string(bad) == "--elem-bytes 0";
    if (size) {
      EXPECT_NE(refused.err.find("must be positive, got"), std::string::npos) << refused.err;  // not a range to 1.8e308
    }
  }
}

}  // namespace
}  // namespace redist
