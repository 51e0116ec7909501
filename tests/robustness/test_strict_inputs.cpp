// Strict inputs. Repeated YAML keys, sweeps counted before they are expanded
// (checked arithmetic, --max-runs), progress lines when stderr is not a terminal, and platform values
// SimGrid would misread — each one clear error line naming what is wrong, never a hang or a crash.
#include <gtest/gtest.h>
#include <sys/stat.h>  // mkfifo

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <regex>

#include "../run_command.hpp"
#include "../temp_dir.hpp"
#include "redist/experiments/scenario.hpp"
#include "redist/experiments/sweep_shards.hpp"
#include "redist/os/input_file.hpp"
#include "redist/os/outputs_apart.hpp"
#include "redist/os/utf8.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/sim/platform_check.hpp"

namespace redist::test {
namespace {

namespace fs = std::filesystem;

// One directory per process, removed at its exit.
const fs::path& temp_dir() {
  static const TempDir dir("redist-strict-inputs");
  return dir.path();
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path path = temp_dir() / name;
  std::ofstream(path) << text;
  return path;
}

// Every command runs under `timeout`: a hang fails the test instead of blocking the suite.
CommandResult redist(const std::string& args) { return run_command("timeout 60 " REDIST_BIN " " + args); }

// A small sweep: 2 x 2 parameter sets x 1 method = 4 runs, a second each at most.
const std::string kSweep = R"(scenario: strict
platform: two_hosts.xml
experiment: redistribute
fixed:
  P: 2
  Q: 2
  N: 64
sweep:
  r: [1, 2]
  s: [1, 4]
methods:
  - name: async
    schedule: async
phases: [comm, total]
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

fs::path sweep_file(const std::string& name, const std::string& text) {
  fs::copy_file(REDIST_TEST_DATA "/platforms/two_hosts.xml", temp_dir() / "two_hosts.xml",
                fs::copy_options::overwrite_existing);
  return write(name, text);
}

Scenario load(const fs::path& file, std::uint64_t max_runs = kDefaultMaxRuns) {
  return load_scenario(file.string(), sim::experiment_specs(), REDIST_SOURCE_DIR, ScenarioUse::Sweep, max_runs);
}

// The error of loading `text`, or "" when it loads.
std::string load_error(const std::string& text, std::uint64_t max_runs = kDefaultMaxRuns) {
  try {
    load(sweep_file("s.yaml", text), max_runs);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

// --- Repeated keys ---------------------------------------------------------------------------

TEST(StrictInputs, SweepFileItselfLoads) { EXPECT_EQ(load_error(kSweep), ""); }

TEST(StrictInputs, RepeatedTopLevelKeyNamesTheKeyAndBothLines) {
  const auto e = load_error(replace(kSweep, "experiment: redistribute\n", "experiment: redistribute\nplatform: x.xml\n"));
  EXPECT_NE(e.find("s.yaml:4: key 'platform' appears twice in one mapping (lines 2 and 4)"), std::string::npos) << e;
}

TEST(StrictInputs, RepeatedFixedParameterIsAnError) {
  const auto e = load_error(replace(kSweep, "  N: 64\n", "  N: 64\n  P: 4\n"));
  EXPECT_NE(e.find("s.yaml:8: key 'P' appears twice in one mapping (lines 5 and 8)"), std::string::npos) << e;
}

TEST(StrictInputs, RepeatedMethodOptionIsAnError) {  // was: greedy run under the label "async"
  const auto e = load_error(replace(kSweep, "    schedule: async\n", "    schedule: async\n    schedule: greedy\n"));
  EXPECT_NE(e.find("s.yaml:14: key 'schedule' appears twice in one mapping (lines 13 and 14)"), std::string::npos) << e;
}

TEST(StrictInputs, RepeatedSweepAxisIsAnError) {
  const auto e = load_error(replace(kSweep, "  s: [1, 4]\n", "  s: [1, 4]\n  r: [3]\n"));
  EXPECT_NE(e.find("s.yaml:11: key 'r' appears twice in one mapping (lines 9 and 11)"), std::string::npos) << e;
}

TEST(StrictInputs, RepeatedKeyInAFlowMappingIsAnError) {
  const auto e = load_error(replace(kSweep, "  r: [1, 2]\n", "  r: {from: 1, to: 4, step: 1, step: 2}\n"));
  EXPECT_NE(e.find("key 'step' appears twice in one mapping (lines 9 and 9)"), std::string::npos) << e;
}

TEST(StrictInputs, SameKeyInDifferentMappingsIsFine) {
  // "name" in two method items, "P" in fixed and in a method: different mappings.
  const auto text = replace(kSweep, "    schedule: async\n", "    schedule: async\n  - name: greedy\n    schedule: greedy\n");
  EXPECT_EQ(load_error(text), "");
}

TEST(StrictInputs, RepeatedKeyOnTheCommandLineIsOneErrorLine) {
  const auto file = sweep_file("dup.yaml", replace(kSweep, "    schedule: async\n", "    schedule: async\n    schedule: greedy\n"));
  const auto r = redist("sweep --no-plot --out " + (temp_dir() / "out-dup").string() + " " + file.string());
  expect_one_error_line(r);
  EXPECT_NE(r.err.find("dup.yaml:14: key 'schedule' appears twice"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(temp_dir() / "out-dup" / "strict.json"));
}

// --- Sweep sizes -----------------------------------------------------------------------------

TEST(StrictInputs, RangesNearTheTopOf64BitsAreCountedExactly) {
  constexpr long long kMax = std::numeric_limits<long long>::max();
  const auto axis = [](const std::string& range) {
    // P is swept (a parameter whose values the experiment accepts up to 2^63 - 1 without running).
    return load(sweep_file("big.yaml", replace(replace(kSweep, "  P: 2\n", ""), "  r: [1, 2]\n", "  P: " + range + "\n")))
        .sweep.at(0)
        .values;
  };
  const auto step = axis("{from: " + std::to_string(kMax - 250) + ", to: " + std::to_string(kMax) + ", step: 100}");
  ASSERT_EQ(step.size(), 3u);
  EXPECT_EQ(step[2].get<long long>(), kMax - 50);
  const auto to_max = axis("{from: " + std::to_string(kMax - 1) + ", to: " + std::to_string(kMax) + ", step: " +
                           std::to_string(kMax) + "}");
  ASSERT_EQ(to_max.size(), 1u);
  const auto factor = axis("{from: 4611686018427387904, to: " + std::to_string(kMax) + ", factor: 2}");  // 2^62
  ASSERT_EQ(factor.size(), 1u);  // 2^63 does not fit: no wrap-around, no endless loop
  const auto factor3 = axis("{from: 1, to: " + std::to_string(kMax) + ", factor: 3}");
  ASSERT_EQ(factor3.size(), 40u);  // 3^39 < 2^63 - 1 < 3^40
  EXPECT_EQ(factor3.back().get<long long>(), 4052555153018976267LL);
}

TEST(StrictInputs, BillionPointAxisIsRefusedWithItsRunCountWithoutExpanding) {
  const auto start = std::chrono::steady_clock::now();
  const auto e = load_error(replace(kSweep, "  r: [1, 2]\n", "  r: {from: 1, to: 1000000000, step: 1}\n"));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
  EXPECT_NE(e.find("the scenario has 2000000000 runs (1000000000 x 2 x 1 methods), more than --max-runs 100000"),
            std::string::npos)
      << e;
}

TEST(StrictInputs, HugeProductIsRefusedWithItsRunCount) {
  const auto text = replace(replace(replace(kSweep, "  N: 64\n", ""), "  r: [1, 2]\n", "  r: {from: 1, to: 1001, step: 1}\n  N: {from: 1, to: 1000, step: 1}\n"),
                            "  s: [1, 4]\n", "  s: {from: 1, to: 1000, step: 1}\n");
  const auto e = load_error(text);
  EXPECT_NE(e.find("1001000000 runs (1001 x 1000 x 1000 x 1 methods)"), std::string::npos) << e;
}

TEST(StrictInputs, ProductBeyond64BitsIsRefused) {
  std::string axes;
  for (const char* name : {"r", "s", "N", "k"}) {
    axes += std::string("  ") + name + ": {from: 1, to: 9000000000000000000, step: 1}\n";
  }
  const auto e = load_error(replace(replace(replace(kSweep, "  N: 64\n", ""), "  r: [1, 2]\n", axes), "  s: [1, 4]\n", ""));
  EXPECT_NE(e.find("more than 2^64 runs"), std::string::npos) << e;
}

TEST(StrictInputs, MaxRunsIsAnOptionAndTheRefusalGivesTheCount) {
  const auto file = sweep_file("four.yaml", kSweep);
  const auto out = (temp_dir() / "out-four").string();
  const auto refused = redist("sweep --no-plot --max-runs 3 --out " + out + " " + file.string());
  expect_one_error_line(refused);
  EXPECT_NE(refused.err.find("the scenario has 4 runs (2 x 2 x 1 methods), more than --max-runs 3"), std::string::npos)
      << refused.err;
  const auto accepted = redist("sweep --no-plot --max-runs 4 --out " + out + " " + file.string());
  EXPECT_EQ(accepted.status, 0) << accepted.err;
}

TEST(StrictInputs, ProgressLinesWhenStderrIsNotATerminal) {
  const auto file = sweep_file("progress.yaml", kSweep);
  const auto r = redist("sweep --no-plot --progress-seconds 0 --out " + (temp_dir() / "out-progress").string() + " " +
                        file.string());
  ASSERT_EQ(r.status, 0) << r.err;
  // The check of every run before the first, then the runs: at interval 0 a line each, the last "4/4".
  const std::regex line(R"(strict( \(checking\))?: ([1-4])/4 runs, ~\d+s left)");
  int lines = 0, checking = 0;
  std::istringstream err(r.err);
  for (std::string text; std::getline(err, text);) {
    EXPECT_TRUE(std::regex_match(text, line)) << text;
    (text.find("(checking)") != std::string::npos ? checking : lines) += 1;
  }
  EXPECT_EQ(lines, 4) << r.err;
  EXPECT_GE(checking, 1) << r.err;
  EXPECT_NE(r.err.find("strict: 4/4 runs"), std::string::npos);
  // The default interval (10 s) keeps a short sweep quiet.
  const auto quiet = redist("sweep --no-plot --out " + (temp_dir() / "out-quiet").string() + " " + file.string());
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.err, "");
}

// --- Platform values -------------------------------------------------------------------------

struct PlatformCase {
  const char* name;
  const char* from;
  const char* to;
  const char* reason;
};

class BadPlatform : public ::testing::TestWithParam<PlatformCase> {};

TEST_P(BadPlatform, IsRefusedBeforeTheSimulationNamingTheElementAndTheFile) {
  const auto& c = GetParam();
  const auto text = replace(slurp(REDIST_TEST_DATA "/platforms/two_hosts.xml"), c.from, c.to);
  const auto file = write(std::string(c.name) + ".xml", text);
  const auto r = redist("simulate --platform " + file.string() + " -P 2 -r 1 -Q 2 -s 2 -N 64");
  expect_one_error_line(r);
  EXPECT_NE(r.err.find("platform " + file.string() + ": " + c.reason), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    StrictInputs, BadPlatform,
    ::testing::Values(
        PlatformCase{"zero_bandwidth", "bandwidth=\"10MBps\"", "bandwidth=\"0MBps\"", "link 'wire' has bandwidth 0 B/s"},
        PlatformCase{"negative_bandwidth", "bandwidth=\"10MBps\"", "bandwidth=\"-10MBps\"", "link 'wire' has bandwidth -1e+07 B/s"},
        PlatformCase{"nan_bandwidth", "bandwidth=\"10MBps\"", "bandwidth=\"nanBps\"", "link 'wire' has bandwidth nan B/s"},
        PlatformCase{"infinite_bandwidth", "bandwidth=\"10MBps\"", "bandwidth=\"infBps\"", "link 'wire' has bandwidth inf B/s"},
        PlatformCase{"negative_latency", "latency=\"50us\"", "latency=\"-50us\"", "link 'wire' has latency -5e-05 s"},
        PlatformCase{"infinite_latency", "latency=\"50us\"", "latency=\"infs\"", "link 'wire' has latency inf s"},
        PlatformCase{"zero_speed", "id=\"node-1\" speed=\"2Gf\"", "id=\"node-1\" speed=\"0f\"", "host 'node-1' has speed 0 flop/s"},
        PlatformCase{"removed_route", "<route src=\"node-0\" dst=\"node-1\"><link_ctn id=\"wire\"/></route>", "",
                     "no route from host 'node-0' to host 'node-1'"},
        PlatformCase{"misspelt_property", "id=\"node-1\" speed=\"2Gf\">",
                     "id=\"node-1\" speed=\"2Gf\"><prop id=\"cost.record_copid\" value=\"0\"/>",
                     "host 'node-1' has property 'cost.record_copid', which redist does not know"},
        PlatformCase{"property_on_the_wrong_element", "latency=\"50us\"/>",
                     "latency=\"50us\"><prop id=\"cpu.time_slice\" value=\"0.004\"/></link>",
                     "link 'wire' has property 'cpu.time_slice', which redist reads on a host only"},
        // SimGrid aborted the whole process ("Not a valid model!").
        PlatformCase{"unknown_routing", "routing=\"Full\"", "routing=\"Fulll\"",
                     "zone 'world' has routing=\"Fulll\" (SimGrid knows Full, Floyd"},
        // SimGrid said "Unexpected character `<' in prolog" and "EOF in comment".
        PlatformCase{"no_doctype", "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">", "",
                     "no <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> before <platform>"},
        PlatformCase{"unclosed_comment", "distinct. -->", "distinct.",
                     "the comment opened on line 3 is never closed (is the file cut short?)"},
        PlatformCase{"no_platform_element", "<platform version=\"4.1\">", "",
                     "no <platform> element"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// SimGrid's parser names the line twice and its own state number: one line, the file's line once.
TEST(StrictInputs, PlatformSyntaxErrorsNameTheFileLineOnce) {
  const auto text = replace(slurp(REDIST_TEST_DATA "/platforms/two_hosts.xml"), "<link id", "<link colour=\"red\" id");
  const auto file = write("bad_attribute.xml", text);
  for (const std::string command : {"simulate", "explain"}) {
    const auto r = redist(command + " --platform " + file.string() + " -P 2 -r 1 -Q 2 -s 2 -N 64");
    expect_one_error_line(r);
    EXPECT_EQ(r.err, "redist: error: platform " + file.string() + ":28: Bad attribute `colour' in `link' element start tag.\n");
  }
  const auto unknown = write("unknown_element.xml", replace(slurp(REDIST_TEST_DATA "/platforms/two_hosts.xml"), "<link id",
                                                            "<wormhole/><link id"));
  const auto r = redist("simulate --platform " + unknown.string() + " -P 2 -r 1 -Q 2 -s 2 -N 64");
  expect_one_error_line(r);
  EXPECT_EQ(r.err, "redist: error: platform " + unknown.string() +
                       ":28: Unexpected character `<': `</zone>' expected. (<zone> is left open, or holds an element that "
                       "<zone> cannot hold or SimGrid does not know)\n");
}

TEST(StrictInputs, UnmodifiedPlatformStillRuns) {
  const auto r = redist("simulate --platform " REDIST_TEST_DATA "/platforms/two_hosts.xml -P 2 -r 1 -Q 2 -s 2 -N 64");
  EXPECT_EQ(r.status, 0) << r.err;
}

// Machine model files: the platform XML's rules, and every refusal names the file and the key, what
// was found and what is allowed (no nlohmann text).
MachineModel one_host_model() {
  MachineModel m;
  m.hosts = 1;
  m.cores = 2;
  m.links = {{1e9, true}};
  m.routes = {{{0}, 1e-6}};
  return m;
}

std::string model_error(const std::string& from, const std::string& to) {
  std::string text = machine_model_to_json(one_host_model());
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " in " << text;
  if (at == std::string::npos) return "";
  try {
    machine_model_from_json(text.replace(at, from.size(), to), "m.model.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(StrictInputs, MachineModelValuesAreNamedByTheirKey) {
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(one_host_model()), "m.model.json"), one_host_model());
  EXPECT_EQ(model_error("\"hosts\":1", "\"hosts\":1e30"),
            "machine model m.model.json: 'hosts' is 1e+30 (it must be a whole number from 1 to 1048576)");
  EXPECT_EQ(model_error("\"cores\":2", "\"cores\":0"),
            "machine model m.model.json: 'cores' is 0 (it must be a whole number from 1 to 2147483647)");
  EXPECT_EQ(model_error("\"links\":[0]", "\"links\":[-1]"),
            "machine model m.model.json: 'routes[0].links[0]' is -1 (it must be a whole number from 0 to 0)");
  EXPECT_EQ(model_error("\"bandwidth\":1000000000.0", "\"bandwidth\":0"),
            "machine model m.model.json: 'links[0].bandwidth' is 0 (it must be a finite number > 0)");
  EXPECT_EQ(model_error("\"latency\":1e-06", "\"latency\":\"50us\""),
            "machine model m.model.json: 'routes[0].latency' is \"50us\" (it must be a finite number >= 0)");
  EXPECT_EQ(model_error("\"shared\":true", "\"shared\":1"),
            "machine model m.model.json: 'links[0].shared' is 1 (it must be true or false)");
  EXPECT_EQ(model_error("\"cost.send_overhead\":0.0", "\"cost.send_overhead\":-2"),
            "machine model m.model.json: 'prices.cost.send_overhead' is -2 (it must be a finite number >= 0)");
  EXPECT_EQ(model_error("\"routes\":", "\"paths\":"), "machine model m.model.json: 'routes' is missing");
  // The parser's own words, without its exception's name.
  EXPECT_EQ(model_error("{", "["), "machine model m.model.json: not JSON: parse error at line 1, column 19: syntax "
                                   "error while parsing array - unexpected ':'; expected ']'");
}

// Most keys of a model are optional (models written before they existed): a misspelt one was read
// as absent, without a word.
TEST(StrictInputs, MachineModelKeysItDoesNotKnowAreRefused) {
  EXPECT_NE(model_error("\"hosts\":1", "\"hosts\":1,\"time_slise\":0.01")
                .find("machine model m.model.json: 'time_slise' is not a key of a machine model (expected one of: "),
            std::string::npos);
  EXPECT_NE(model_error("\"shared\":true", "\"shared\":true,\"oversubscribed_bandwith\":1")
                .find("'links[0].oversubscribed_bandwith' is not a key of a machine model"),
            std::string::npos);
  EXPECT_NE(model_error("\"cost.send_overhead\"", "\"cost.sendoverhead\":1,\"cost.send_overhead\"")
                .find("'prices.cost.sendoverhead' is not a key of a machine model (expected one of: cost.send_overhead, "),
            std::string::npos);
  EXPECT_NE(model_error("\"latency\"", "\"hops\":2,\"latency\"").find("'routes[0].hops' is not a key"), std::string::npos);
}

TEST(StrictInputs, MachineModelThatIsNoObjectOrHoldsAnOverflowingNumberIsNamed) {
  const auto error = [](const std::string& text) -> std::string {
    try {
      machine_model_from_json(text, "m.model.json");
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("[1,2,3]"), "machine model m.model.json: the file holds [1,2,3] (a machine model must be a JSON object)");
  // An out_of_range error of nlohmann's parser, which once reached the user without the file's name.
  EXPECT_EQ(error("{\"hosts\": 1e400}"), "machine model m.model.json: not JSON: number overflow parsing '1e400'");
}

// The shared loader reads only a regular file: a device (/dev/zero, once read without end), a
// directory or a FIFO (once a read that waits for a writer) is refused with one line, for every
// reader (redist-mpi --model, REDIST_MODEL, the benchmarks).
std::string load_model_error(const std::string& path) {
  try {
    load_machine_model(path);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(StrictInputs, MachineModelFileMustBeARegularFile) {
  const std::string why = ": not a regular file (a machine model is the .model.json file `redist calibrate` writes)";
  EXPECT_EQ(load_model_error("/dev/zero"), "machine model /dev/zero" + why);
  EXPECT_EQ(load_model_error(temp_dir().string()), "machine model " + temp_dir().string() + why);
  const fs::path fifo = temp_dir() / "model.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(load_model_error(fifo.string()), "machine model " + fifo.string() + why);
  EXPECT_EQ(load_model_error((temp_dir() / "absent.model.json").string()),
            "machine model " + (temp_dir() / "absent.model.json").string() + ": no such file");
  const fs::path good = write("good.model.json", machine_model_to_json(one_host_model()));
  EXPECT_EQ(load_machine_model(good.string()), one_host_model());
}

TEST(StrictInputs, ResultLinesNameTheirKey) {
  const auto problem = [](const std::string& line) { return result_line_problem(nlohmann::json::parse(line)); };
  EXPECT_EQ(problem(R"({"job":1,"phases":[0,0,0,0,0,0,0,0,0],"quantities":{}})"), "");
  EXPECT_EQ(problem(R"({"job":1,"error":"x"})"), "");
  EXPECT_EQ(problem(R"({"job":"1","phases":[0,0,0,0,0,0,0,0,0],"quantities":{}})"),
            "'job' is \"1\" (it must be a whole number from 0 to 4294967295)");
  EXPECT_EQ(problem(R"({"job":-2,"phases":[0,0,0,0,0,0,0,0,0],"quantities":{}})"),
            "'job' is -2 (it must be a whole number from 0 to 4294967295)");
  EXPECT_EQ(problem(R"({"job":1,"phases":[0,0],"quantities":{}})"),
            "'phases' is [0,0] (it must be a list of 9 finite numbers)");
  EXPECT_EQ(problem(R"({"job":1,"phases":[0,0,0,0,0,0,0,0,0],"quantities":{"q":"x"}})"),
            "'quantities.q' is \"x\" (it must be a number)");
  EXPECT_EQ(problem(R"({"job":1,"phases":[0,0,0,0,0,0,0,0,0]})"), "'quantities' is missing");
}

TEST(StrictInputs, Utf8IsCheckedByteByByte) {
  EXPECT_FALSE(os::first_non_utf8_byte("plain ascii, é, 日本, 𝄞"));
  EXPECT_EQ(os::first_non_utf8_byte("ab\xff"), 2u);
  EXPECT_EQ(os::first_non_utf8_byte("\xc3"), 0u);            // cut short
  EXPECT_EQ(os::first_non_utf8_byte("x\xc0\xaf"), 1u);      // overlong
  EXPECT_EQ(os::first_non_utf8_byte("\xed\xa0\x80"), 0u);  // a surrogate
  EXPECT_EQ(os::first_non_utf8_byte("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(os::utf8_problem("as\xffync"), "byte 0xFF at offset 2 of 'as?ync' is not UTF-8");
}

// --- Inputs read whole: regular files under a bound, in the parsers' own process ---------------

TEST(StrictInputs, DeeplyNestedYamlNamesItsLineAndTheReason) {
  const std::string deep = kSweep + "extra: " + std::string(100000, '[') + std::string(100000, ']') + "\n";
  const auto lines = std::count(kSweep.begin(), kSweep.end(), '\n');
  EXPECT_EQ(load_error(deep), (temp_dir() / "s.yaml").string() + ":" + std::to_string(lines + 1) +
                                  ": YAML nested more than 500 levels deep (a scenario needs a few)");
}

// yaml-cpp names these mistakes by their effect only ("illegal block entry", "unknown escape
// character", "illegal map value"): the reader adds the cause.
TEST(StrictInputs, YamlMistakesNamedByTheirCause) {
  const std::string file = (temp_dir() / "s.yaml").string();
  EXPECT_EQ(load_error(replace(kSweep, "  - name: async", "\t- name: async")),
            file + ":12: YAML syntax error: illegal block entry (this line is indented with a tab: YAML indents with "
                   "spaces only)");
  EXPECT_EQ(load_error(replace(kSweep, "schedule: async", std::string("schedule: as\0ync", 16))),
            file + ":13: a NUL byte (0x00) at offset 167 (a YAML file is text)");
  EXPECT_EQ(load_error(kSweep + std::string(2000, 'k') + ": 1\n"),
            file + ":15: YAML syntax error: illegal map value (this line's key is 2000 characters long: YAML allows at "
                   "most 1024)");
  EXPECT_EQ(load_error("# nothing but a comment\n\n"),
            file + ": holds no YAML document, only blanks or comments (a scenario must be a YAML mapping)");
}

TEST(StrictInputs, ScenariosAndPlatformsThatAreNotRegularFilesAreRefusedUnread) {
  const auto error = [](const std::function<void()>& read) -> std::string {
    try {
      read();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  const fs::path fifo = temp_dir() / "input.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), fifo.string()}) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(error([&] { load(path); }), path + ": not a regular file (a device, FIFO or socket is not read)");
    EXPECT_EQ(error([&] { sim::check_platform_text(path); }),
              "platform " + path + ": not a regular file (a device, FIFO or socket is not read)");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << path;
  }
  const fs::path big = write("big.yaml", std::string(os::kMaxYamlBytes + 1, '#'));
  EXPECT_EQ(error([&] { load(big); }),
            big.string() + ": " + std::to_string(os::kMaxYamlBytes + 1) + " bytes, more than the " +
                std::to_string(os::kMaxYamlBytes) + " a YAML file may have");
}

TEST(StrictInputs, TheSweepFingerprintCoversThePlatform) {
  const fs::path scenario = sweep_file("f.yaml", kSweep), platform = temp_dir() / "two_hosts.xml";
  const std::string before = inputs_fingerprint({scenario, platform});
  EXPECT_EQ(inputs_fingerprint({scenario, platform}), before);
  std::ofstream(platform, std::ios::app) << "<!-- edited -->\n";
  EXPECT_NE(inputs_fingerprint({scenario, platform}), before);
  // Each file's length is part of it: moving bytes from one file to the other changes it too.
  const fs::path ab = write("ab", "ab"), b = write("b", "b"), a = write("a", "a"), bb = write("bb", "bb");
  EXPECT_NE(inputs_fingerprint({ab, b}), inputs_fingerprint({a, bb}));
}

TEST(StrictInputs, AnOutputThatIsAnInputUnderAnotherNameIsRefused) {
  const fs::path input = write("platform.xml", "<platform/>\n"), hard = temp_dir() / "hard.xml", soft = temp_dir() / "soft.xml";
  fs::create_hard_link(input, hard);
  fs::create_symlink(input, soft);
  for (const fs::path& output : {input, hard, soft}) {
    try {
      os::refuse_outputs_onto_inputs({{output, "--write-model"}}, {{input, "--platform"}});
      ADD_FAILURE() << output << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--write-model " + output.string() + " is the --platform file"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_NO_THROW(os::refuse_outputs_onto_inputs({{temp_dir() / "new.json", "--write-model"}}, {{input, "--platform"}}));
}

}  // namespace
}  // namespace redist::test
