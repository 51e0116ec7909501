// One schema per experiment (redist/experiments/experiment_schema.hpp) drives the command line, the
// scenario checks and scenarios/README.md's table: a parameter of a schema is a flag of the
// experiment's command and a key scenarios accept, by the same rules, and the README shows it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "redist/experiments/scenario.hpp"
#include "redist/reports/schema_table.hpp"
#include "redist/experiments/experiments.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

namespace redist::test {
namespace {

namespace fs = std::filesystem;

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

// A value the parameter accepts: its default, else its smallest number (or pair of them), else its
// first name.
nlohmann::json example(const ParameterSpec& p) {
  if (!p.default_value.is_null()) return p.default_value;
  if (p.pair != 0) {
    const std::string least = std::to_string(std::max<std::int64_t>(p.min.value_or(0), 1));
    return least + p.pair + least;
  }
  if (p.min) return std::max<std::int64_t>(*p.min, 1);
  return p.names.front();
}

// A phase the experiment reports, or its first quantity when it has no phase (pack-beta1).
std::string reported(const ExperimentSpec& e) {
  return e.phases.empty() ? e.quantities.front() : std::string(phase_names().name_of(e.phases.front()));
}

// A sweep scenario of `experiment` fixing every required parameter and `extra`.
std::string scenario_text(const ExperimentSpec& e, const std::string& extra, const nlohmann::json& value) {
  std::string fixed;
  for (const auto& p : e.parameters) {
    if (p.required && p.name != extra) fixed += p.name + ": " + (example(p).is_string() ? example(p).get<std::string>() : example(p).dump()) + ", ";
  }
  // In a flow mapping a comma separates entries: "A,B" values are quoted, as a user writes them there.
  fixed += extra + ": " + value.dump();
  return "scenario: s\nplatform: sp2.xml\nexperiment: " + e.name + "\nfixed: {" + fixed +
         "}\nmethods:\n  - name: m\nphases: [" + reported(e) + "]\n";
}

Scenario load(const std::string& text) {
  static const TempDir dir("redist-schema-tests");  // removed at the process's exit
  std::ofstream(dir / "s.yaml") << text;
  return load_scenario((dir / "s.yaml").string(), sim::experiment_specs(), REDIST_SOURCE_DIR, ScenarioUse::Sweep);
}

std::string scenario_error(const std::string& text) {
  try {
    load(text);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(ExperimentSchema, EveryParameterIsAScenarioKeyCheckedByTheSchema) {
  for (const auto& e : sim::experiment_specs()) {
    for (const auto& p : e.parameters) {
      EXPECT_NO_THROW(load(scenario_text(e, p.name, example(p)))) << e.name << " " << p.name;
      if (!p.names.empty() || p.min) {  // a value outside the schema: the schema's own message
        const auto error = scenario_error(scenario_text(e, p.name, "no-such-value"));
        EXPECT_NE(error.find("parameter '" + p.name + "' must be " + p.accepted()), std::string::npos) << error;
      }
    }
  }
}

TEST(ExperimentSchema, EveryCommandLineParameterIsAFlagOfTheCommand) {
  for (const auto& e : sim::experiment_specs()) {
    if (e.command.empty()) continue;
    const auto help = run_command(redist(e.command + " --help"));
    ASSERT_EQ(help.status, 0) << help.err;
    for (const auto& p : e.parameters) {
      const bool listed = help.out.find(" " + flag_name(p.name) + " ") != std::string::npos;
      EXPECT_EQ(listed, p.on_command_line) << "redist " << e.command << " and " << flag_name(p.name) << ":\n" << help.out;
    }
  }
}

TEST(ExperimentSchema, CommandAndScenarioRefuseABadValueWithOneMessage) {
  const auto& e = sim::find_experiment("redistribute").spec;
  const auto error = scenario_error(scenario_text(e, "elem_bytes", 0));
  const auto command = run_command(redist("simulate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml -P 2 -r 1 -Q 2 -s 3 -N 100 --elem-bytes 0"));
  const std::string message = "parameter 'elem_bytes' must be a positive whole number, got 0";
  EXPECT_NE(error.find(message), std::string::npos) << error;
  EXPECT_EQ(command.err, "redist: error: --elem-bytes: " + message + "\n");
  EXPECT_NE(command.status, 0);
}

TEST(ExperimentSchema, SraCommandTakesTheWorkParameterOfTheSchema) {
  const std::string run = redist("sra --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml -n 64 -P 2 -x 4 -y 8 --json");
  const auto redist_work = run_command(run), paper_work = run_command(run + " --work paper");
  ASSERT_EQ(paper_work.status, 0) << paper_work.err;
  EXPECT_NE(nlohmann::json::parse(redist_work.out)["phases"], nlohmann::json::parse(paper_work.out)["phases"]);
}

TEST(ExperimentSchema, ReadmeTableIsWhatTheSchemaPrints) {
  const std::string readme = slurp(fs::path(REDIST_SOURCE_DIR) / "scenarios/README.md");
  const std::string begin = "<!-- begin: printed by `redist experiments` -->\n", end = "<!-- end: printed by `redist experiments` -->";
  const auto from = readme.find(begin), to = readme.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const auto printed = run_command(redist("experiments"));
  ASSERT_EQ(printed.status, 0) << printed.err;
  EXPECT_EQ(printed.out, schema_markdown(sim::experiment_specs()));
  EXPECT_EQ(readme.substr(from + begin.size(), to - from - begin.size()), printed.out)
      << "scenarios/README.md's experiment table is stale: paste the output of `redist experiments` between its markers";
}

TEST(Payload, OneDefaultForScenariosAndCommands) {
  EXPECT_EQ(payload_names().name_of(kDefaultPayload), "auto");
  EXPECT_EQ(load(scenario_text(sim::find_experiment("holes").spec, "o", 0)).payload, kDefaultPayload);
  for (const char* command : {"simulate", "sra"}) {
    const auto help = run_command(redist(std::string(command) + " --help"));
    EXPECT_NE(help.out.find("--payload TEXT:{real,phantom,auto}=auto"), std::string::npos) << help.out;
  }
}

TEST(Payload, PhantomAndPayloadAreOneChoice) {
  const std::string run = redist("simulate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml -P 2 -r 1 -Q 2 -s 3 -N 100 --json");
  const auto phantom = nlohmann::json::parse(run_command(run + " --phantom").out);
  const auto payload = nlohmann::json::parse(run_command(run + " --payload phantom").out);
  EXPECT_EQ(phantom, payload);
  EXPECT_TRUE(payload["phantom"].get<bool>());
  const auto both = run_command(run + " --phantom --payload real");
  EXPECT_NE(both.status, 0);
  expect_one_error_line(both);
}

TEST(ParameterSpec, SaysWhatItAccepts) {
  const ParameterSpec block{.name = "x", .min = 1, .names = {"block", "cyclic"}};
  EXPECT_EQ(block.accepted(), "a positive whole number, block or cyclic");
  EXPECT_NO_THROW(block.check(3));
  EXPECT_NO_THROW(block.check("cyclic"));
  EXPECT_THROW(block.check(0), std::invalid_argument);
  EXPECT_THROW(block.check("blocky"), std::invalid_argument);
  const ParameterSpec percent{.name = "density", .min = 0, .max = 100, .names = {"LT"}};
  EXPECT_EQ(percent.accepted(), "a whole number from 0 to 100 or LT");
  EXPECT_THROW(percent.check(101), std::invalid_argument);
  EXPECT_EQ(flag_name("elem_bytes"), "--elem-bytes");
  EXPECT_EQ(flag_name("P"), "-P");
}

TEST(ParameterValues, DefaultsComeFromTheSchema) {
  const auto& e = sim::find_experiment("redistribute").spec;
  const ParameterValues v(e, {{"P", 4}, {"N", 100}});
  EXPECT_EQ(v.integer("elem_bytes"), 8);
  EXPECT_EQ(v.text("indexing"), "naive");
  EXPECT_FALSE(v.given("elem_bytes"));
  try {
    (void)v.integer("r");
    ADD_FAILURE() << "r has no default";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "parameter 'r' is not set");
  }
  EXPECT_THROW(ParameterValues(e, {{"P", 0}}), std::invalid_argument);
  EXPECT_THROW(ParameterValues(e, {{"teleport", 1}}), std::invalid_argument);
}

}  // namespace
}  // namespace redist::test
