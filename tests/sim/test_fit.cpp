// `redist fit` run as a user would: it recovers known platform values from a table the simulator
// itself generated, reads only train scenarios, and refuses bad specifications with one error line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "run_command.hpp"
#include "temp_dir.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;
using test::run_command;
using test::slurp;

const std::string kSource = REDIST_SOURCE_DIR;

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

// Every occurrence of `from` replaced.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The values the synthetic truth changes, by known factors, on a copy of the SP2 platform. Two runs
// (r = 1 and 4: runs of 1 and 4 elements) of PITFALLS make 8 cells: index prices index_op, pack and
// unpack separate byte_copied from run_copied, comm the adapters' bandwidth.
struct Known {
  const char* name;
  const char* set;
  std::string derived_text, true_text;  // as written in the platform file
  double derived, truth;
};

const std::vector<Known> kKnown = {
    {"index_op", "{host_property: cost.index_op}", R"(<prop id="cost.index_op" value="3.436e-07"/>)",
     R"(<prop id="cost.index_op" value="8.59e-07"/>)", 3.436e-07, 8.59e-07},  // x 2.5
    {"byte_copied", "{host_property: cost.byte_copied}", R"(<prop id="cost.byte_copied" value="4.557e-09"/>)",
     R"(<prop id="cost.byte_copied" value="2.7342e-09"/>)", 4.557e-09, 2.7342e-09},  // x 0.6
    {"run_copied", "{host_property: cost.run_copied}", R"(<prop id="cost.run_copied" value="1.458e-07"/>)",
     R"(<prop id="cost.run_copied" value="2.6244e-07"/>)", 1.458e-07, 2.6244e-07},  // x 1.8
    {"adapter_bandwidth", "{link_bandwidth: \"msg-(in|out)-[0-9]+\"}", R"(bandwidth="35MBps")",
     R"(bandwidth="24.5MBps")", 35e6, 24.5e6},  // x 0.7
};

const std::string kScenario = R"(scenario: {name}
paper: 000_6d104d7264253a4e.txt
table: synthetic
role: {role}
platform: {platform}
experiment: redistribute
fixed: {{P: 4, Q: 4, k: 3, elem_bytes: 4, schedule: async, placement: shared, N: 48000}}
sweep:
  direction: ["kr->r", "r->kr"]
  r: [1, 4]
methods:
  - name: pitfalls
    indexing: pitfalls
phases: [index, pack, unpack, comm]
unit: ms
)";

// A repository-like folder (scenarios/, platforms/): redist reads the one it is run in.
struct SyntheticRepo {
  const test::TempDir dir{"redist-test-fit"};  // removed with the repository
  const fs::path root = dir.path();

  SyntheticRepo() {
    fs::create_directories(root / "scenarios");
    fs::create_directories(root / "platforms");
    std::string derived = slurp(kSource + "/platforms/sp2.xml"), truth = derived;
    for (const auto& k : kKnown) {
      EXPECT_NE(derived.find(k.derived_text), std::string::npos) << k.derived_text;
      truth = replace_all(truth, k.derived_text, k.true_text);
    }
    std::ofstream(root / "platforms" / "derived.xml") << derived;
    std::ofstream(root / "platforms" / "truth.xml") << truth;
  }

  std::string run(const std::string& args) const {
    return "cd " + root.string() + " && " + redist(args);
  }

  // The "published" table: the scenario simulated on the true platform.
  std::string published_rows() const {
    std::ofstream(root / "scenarios" / "truth.yaml")
        << fmt::format(fmt::runtime(kScenario), fmt::arg("name", "truth"), fmt::arg("role", "claims"), fmt::arg("platform", "truth.xml"));
    const auto result = run_command(run("replay scenarios/truth.yaml --no-plot --json --out " + (root / "out").string()));
    EXPECT_EQ(result.status, 0) << result.err;
    std::string rows = "published:\n";
    const auto reports = nlohmann::json::parse(result.out);  // named: the loop must not outlive it
    for (const auto& r : reports.at(0).at("records")) {
      rows += fmt::format("  - params: {{direction: \"{}\", r: {}, N: {}}}\n    values: {{{}: {{{}: {:.17g}}}}}\n",
                          r["params"]["direction"].get<std::string>(), r["params"]["r"].get<int>(),
                          r["params"]["N"].get<int>(), r["method"].get<std::string>(), r["phase"].get<std::string>(),
                          r["simulated"].get<double>());
    }
    fs::remove(root / "scenarios" / "truth.yaml");
    return rows;
  }

  void write_scenario(const std::string& name, const std::string& role, const std::string& published) const {
    std::ofstream(root / "scenarios" / (name + ".yaml"))
        << fmt::format(fmt::runtime(kScenario), fmt::arg("name", name), fmt::arg("role", role), fmt::arg("platform", "derived.xml"))
        << published;
  }

  fs::path write_spec(const std::string& train, const std::string& values) const {
    const fs::path spec = root / "platforms" / "derived.fit.yaml";
    std::ofstream(spec) << "platform: derived.xml\nfitted: derived-fitted.xml\ntrain: [" << train << "]\nvalues:\n"
                        << values;
    return spec;
  }
};

std::string value_entry(const Known& k) {
  return fmt::format("  - name: {}\n    set: {}\n    meaning: \"a value the synthetic truth changed\"\n"
                     "    range: [{:g}, {:g}]\n",
                     k.name, k.set, k.derived / 10, k.derived * 10);
}

TEST(FitCommand, RecoversKnownValuesFromASyntheticTable) {
  const SyntheticRepo repo;
  repo.write_scenario("synthetic", "train", repo.published_rows());
  std::string values;
  for (const auto& k : kKnown) values += value_entry(k);
  const fs::path spec = repo.write_spec("synthetic", values);
  const fs::path json = repo.root / "fit.json";
  const auto result = run_command(repo.run("fit " + spec.string() + " --jobs 2 --json " + json.string()));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.err.find("fit: iteration 1:"), std::string::npos) << result.err;
  EXPECT_NE(result.out.find("Train median relative error (synthetic): "), std::string::npos) << result.out;
  // One table: its cells are grouped by direction, each predicted from the other; every value is
  // needed on held-out cells (r = 1 and 4 in each direction separate byte from piece copies).
  EXPECT_NE(result.out.find("Cross-validated median relative error (leave one direction out, 2 groups, linearised): "),
            std::string::npos) << result.out;
  EXPECT_NE(result.out.find("Not fitted (no cross-validated gain): none."), std::string::npos) << result.out;
  const auto report = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(report["cross_validation"]["leave_one_out"], "direction");
  EXPECT_EQ(report["cross_validation"]["groups"].size(), 2u);
  EXPECT_LT(report["cross_validated_median_relative_error"].get<double>(), 0.01);
  EXPECT_LT(report["train_median_relative_error"]["fitted"].get<double>(), 0.01);
  for (const auto& v : report["values"]) EXPECT_TRUE(v["kept"].get<bool>()) << v.dump();
  const fs::path fitted = repo.root / "platforms" / "derived-fitted.xml";
  ASSERT_TRUE(fs::exists(fitted));
  const std::string text = slurp(fitted);
  EXPECT_NE(text.find("FITTED by `redist fit derived.fit.yaml` from derived.xml on the train scenarios synthetic"),
            std::string::npos);
  EXPECT_TRUE(std::regex_search(text, std::regex("fit errors: train median relative error [0-9.]+%, cross-validated "
                                                 "[0-9.]+% \\(leave one direction out, 2 groups, linearised;")))
      << text.substr(0, 2000);
  for (const auto& k : kKnown) {
    // "fitted: NAME = VALUE (derived D, range [...]): meaning", beside the first site.
    const std::regex comment(std::string("fitted: ") + k.name + " = ([0-9.e+-]+) \\(derived ([0-9.e+-]+), range");
    std::smatch match;
    ASSERT_TRUE(std::regex_search(text, match, comment)) << k.name;
    EXPECT_NEAR(std::stod(match[1]) / k.truth, 1.0, 0.01) << k.name << " fitted " << match[1];
    EXPECT_NEAR(std::stod(match[2]) / k.derived, 1.0, 1e-6) << k.name;
  }
  // The derived platform stays untouched.
  EXPECT_EQ(slurp(repo.root / "platforms" / "derived.xml"), slurp(kSource + "/platforms/sp2.xml"));
}

TEST(FitCommand, RefusesScenariosWhoseRoleIsNotTrain) {
  const SyntheticRepo repo;
  const std::string rows = "published:\n  - params: {r: 1}\n    values: {pitfalls: {comm: 1.0}}\n";
  repo.write_scenario("held-out", "test", rows);
  repo.write_scenario("statements", "claims", "");
  for (const auto& [name, role] : {std::pair{"held-out", "test"}, std::pair{"statements", "claims"}}) {
    const fs::path spec = repo.write_spec(name, value_entry(kKnown[0]));
    const auto result = run_command(repo.run("fit " + spec.string()));
    test::expect_one_error_line(result);
    EXPECT_EQ(result.err, fmt::format("redist: error: {}:3: scenario '{}' has role '{}': a fit reads only scenarios "
                                      "whose role is train\n",
                                      spec.string(), name, role));
    EXPECT_FALSE(fs::exists(repo.root / "platforms" / "derived-fitted.xml"));
  }
}

TEST(FitCommand, RefusesTheRepositorysTestAndClaimsScenarios) {
  const test::TempDir dir("redist-test-fit-repo");
  for (const char* name : {"paper000-table2", "paper004-example1"}) {
    const fs::path spec = dir / "sp2.fit.yaml";
    std::ofstream(spec) << "platform: sp2.xml\nfitted: refused-fitted.xml\ntrain: [" << name << "]\nvalues:\n"
                        << value_entry(kKnown[0]);
    const auto result = run_command(redist("fit " + spec.string()));
    test::expect_one_error_line(result);
    EXPECT_NE(result.err.find(std::string("scenario '") + name + "' has role '"), std::string::npos) << result.err;
  }
  EXPECT_FALSE(fs::exists(kSource + "/platforms/refused-fitted.xml"));
}

struct BadSpec {
  const char* name;
  std::string values;  // the spec's values: section
  int line;
  const char* reason;
};

class FitBadSpec : public ::testing::TestWithParam<BadSpec> {};

TEST_P(FitBadSpec, GivesOneErrorLineWithFileAndLine) {
  const auto& c = GetParam();
  const SyntheticRepo repo;
  repo.write_scenario("synthetic", "train", "published:\n  - params: {r: 1}\n    values: {pitfalls: {comm: 1.0}}\n");
  const fs::path spec = repo.write_spec("synthetic", c.values);
  const auto result = run_command(repo.run("fit " + spec.string()));
  test::expect_one_error_line(result);
  EXPECT_NE(result.err.find(spec.string() + ":" + std::to_string(c.line) + ": "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(c.reason), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(repo.root / "platforms" / "derived-fitted.xml"));
}

std::string seven_values() {
  std::string out;
  for (int k = 0; k < 7; ++k) {
    out += fmt::format("  - {{name: v{}, set: {{host_property: cost.index_op}}, meaning: m, range: [1e-8, 1e-5]}}\n", k);
  }
  return out;
}

const std::string kIndex = "  - name: index_op\n    set: {host_property: cost.index_op}\n    meaning: m\n";

INSTANTIATE_TEST_SUITE_P(
    Spec, FitBadSpec,
    ::testing::Values(
        BadSpec{"more_than_six", seven_values(), 5, "7 values: a fit moves at most 6"},
        BadSpec{"range_reversed", kIndex + "    range: [1e-5, 1e-8]\n", 8, "must satisfy 0 < lower < upper"},
        BadSpec{"range_not_positive", kIndex + "    range: [0, 1e-5]\n", 8, "must satisfy 0 < lower < upper"},
        BadSpec{"range_one_number", kIndex + "    range: [1e-5]\n", 8, "'range' must be [lower, upper]"},
        BadSpec{"range_not_numbers", kIndex + "    range: [small, 1e-5]\n", 8,
                "lower end must be a finite number, got \"small\""},
        // A number to YAML, but no double: it was "must be a number".
        BadSpec{"range_beyond_double", kIndex + "    range: [1e-8, 1e400]\n", 8,
                "upper end must be a finite number, got \"1e400\""},
        BadSpec{"derived_outside_range", kIndex + "    range: [1e-3, 1e-2]\n", 8,
                "the derived value 3.436e-07 is outside the range"},
        BadSpec{"initial_outside_range", kIndex + "    range: [1e-8, 1e-5]\n    initial: 1e-4\n", 9,
                "initial value 0.0001 is outside the range"},
        BadSpec{"unknown_property", "  - {name: x, set: {host_property: cost.teleport}, meaning: m, range: [1, 2]}\n", 5,
                "no host has property 'cost.teleport'"},
        BadSpec{"unknown_link", "  - {name: x, set: {link_bandwidth: \"wormhole-.*\"}, meaning: m, range: [1, 2]}\n", 5,
                "no link id matches 'wormhole-.*'"},
        BadSpec{"two_settings", "  - {name: x, set: {host_speed: true, link_latency: \"msg-.*\"}, meaning: m, range: [1, 2]}\n",
                5, "exactly one of"},
        BadSpec{"unknown_key", kIndex + "    range: [1e-8, 1e-5]\n    ranges: [1, 2]\n", 9, "unknown key 'ranges'"},
        BadSpec{"missing_meaning", "  - {name: x, set: {host_speed: true}, range: [1e8, 1e9]}\n", 5,
                "missing required key 'meaning'"},
        // yaml-cpp would keep both keys, the first read by lookup: a spec that says one thing and fits another.
        BadSpec{"repeated_key", kIndex + "    range: [1e-8, 1e-5]\n    range: [1e-7, 1e-6]\n", 9,
                "key 'range' appears twice in one mapping (lines 8 and 9)"},
        BadSpec{"duplicate_name", kIndex + "    range: [1e-8, 1e-5]\n" + kIndex + "    range: [1e-8, 1e-5]\n", 9,
                "value 'index_op' appears twice"},
        BadSpec{"same_site_twice",
                "  - {name: a, set: {link_bandwidth: \"msg-in-0\"}, meaning: m, range: [1e6, 1e9]}\n"
                "  - {name: b, set: {link_bandwidth: \"msg-.*\"}, meaning: m, range: [1e6, 1e9]}\n",
                5, "two fitted values set the same platform value"}),
    [](const auto& test_case) { return std::string(test_case.param.name); });

TEST(FitCommand, RefusesAMissingScenarioAndAnOverwriteOfTheDerivedPlatform) {
  const SyntheticRepo repo;
  const fs::path spec = repo.write_spec("nowhere", value_entry(kKnown[0]));
  auto result = run_command(repo.run("fit " + spec.string()));
  test::expect_one_error_line(result);
  EXPECT_NE(result.err.find(":3: no scenario 'nowhere'"), std::string::npos) << result.err;
  std::ofstream(spec) << "platform: derived.xml\nfitted: derived.xml\ntrain: [nowhere]\nvalues: []\n";
  result = run_command(repo.run("fit " + spec.string()));
  test::expect_one_error_line(result);
  EXPECT_NE(result.err.find(":2: 'fitted' must differ from the platform"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace redist
