// `redist replay FILE... | --all` and `redist sweep FILE`: run scenarios and write, per scenario,
// a Markdown table (also printed), CSV, JSON and a PNG plot under --out (default results/).
// Every file is published whole (os/atomic_file.hpp); the folder is proved writable and locked
// against a second run (os/folder_lock.hpp) before the first simulation.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "command.hpp"
#include "options.hpp"
#include "progress_bar.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/os/folder_lock.hpp"
#include "redist/analysis/claims.hpp"
#include "redist/analysis/fidelity_summary.hpp"
#include "redist/analysis/platform_search.hpp"
#include "redist/analysis/report_files.hpp"
#include "redist/analysis/what_if_claims.hpp"
#include "redist/analysis/sweep_shards.hpp"
#include "redist/sim/scenario_runner.hpp"
#include "repo_paths.hpp"

namespace redist::cli {
namespace {

namespace fs = std::filesystem;

struct ReplayOptions {
  std::vector<std::string> files;
  bool all = false;
  std::string out = "results";
  bool json = false;
  int jobs = 1;
  bool plot = true;
  bool check_claims = false;
  std::uint64_t max_runs = kDefaultMaxRuns;
  double progress_seconds = 10;  ///< interval of the progress lines printed when stderr is not a terminal
  std::string platform;          ///< what-if: every scenario replayed on this platform instead of its own
  std::string beside;            ///< what-if: the folder of an ordinary replay, for CLAIMS.md
  std::string shard;             ///< sweep: "K/N" or "auto/N", one slice of its jobs
  bool resume = false;           ///< sweep: skip the jobs its journal holds
};

// The plots' scripts are the repository's analysis/*.py.
PlotScripts plot_scripts(const ReplayOptions& o) { return {o.plot, repo_root() / "analysis"}; }

// A platform named on the command line: a file, or one of the bundled platforms/.
std::string find_platform(const std::string& name) {
  if (const auto found = find_platform_file(name, "", repo_root())) return fs::absolute(*found).string();
  throw std::invalid_argument("platform file '" + name + "' not found (looked in the current folder and in platforms/)");
}

// What a run of several scenarios gathers while it reports them one by one.
struct Reported {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();  // --json
  int failed_claims = 0;
  std::vector<ScenarioFidelity> fidelity;
};

// Compares one scenario's records with the paper, prints its report and writes its files; returns
// the paper's claims checked on the records.
std::vector<ClaimResult> report(const ReplayOptions& o, const Scenario& s, const std::vector<Record>& records,
                                Reported& done) {
  auto metrics = compare(records);
  metrics.claims = check_claims(s, records);
  for (const auto& c : metrics.claims) done.failed_claims += c.holds ? 0 : 1;
  const auto markdown = markdown_report(s, records, metrics);
  const auto json = json_report(s, records, metrics);
  done.fidelity.push_back(scenario_fidelity(s, records, metrics));
  // Printed before the files are written: if they cannot be, the results are not lost.
  if (o.json) {
    done.all.push_back(json);
  } else {
    std::cout << markdown << '\n' << std::flush;
  }
  try {
    write_scenario_reports(fs::path(o.out), s, records, markdown, json, plot_scripts(o));
  } catch (const std::exception& e) {
    if (o.json) std::cout << done.all.dump() << '\n';
    std::cout.flush();
    throw std::runtime_error(std::string(e.what()) + " (the results of " + s.name +
                             " are on standard output; earlier files are unchanged)");
  }
  return metrics.claims;
}

// The end of a run: the JSON reports (--json), and the claims that fail when they must hold.
int finish(const ReplayOptions& o, const Reported& done) {
  if (o.json) std::cout << done.all.dump() << '\n';
  if (o.check_claims && done.failed_claims > 0) {
    std::cout.flush();
    throw std::runtime_error(fmt::format("{} claim(s) of the papers do not hold on the simulated values (see the reports)",
                                         done.failed_claims));
  }
  return 0;
}

// The result lines of a sweep's jobs, journalled as they arrive so that --resume can skip them;
// with --shard, only the slice's jobs (the others stay empty).
std::vector<std::string> run_sweep_jobs(const ReplayOptions& o, const Scenario& s, const std::optional<Shard>& shard,
                                        Journal& journal) {
  sim::JobSelection selection;
  if (shard) {
    selection.shard = shard->index;
    selection.shards = shard->count;
  }
  if (o.resume) selection.known = journal.finished();
  journal.start(selection.known);
  selection.on_result = [&journal](const std::string& line) { journal.add(line); };
  return sim::run_jobs(s, o.jobs, ProgressBar(s.name, o.progress_seconds), selection);
}

// One scenario of a what-if replay. The other machine may not hold every experiment (a calibrated
// platform of a few hosts, a paper's 256 ranks): such a scenario is reported as not run there, with
// the reason, and the others go on.
void run_what_if(const ReplayOptions& o, const Scenario& s, ScenarioClaims& claims, Reported& done) {
  std::vector<Record> records;
  try {
    records = sim::run_scenario(s, o.jobs, ProgressBar(s.name, o.progress_seconds));
  } catch (const std::exception& e) {
    claims.not_run = e.what();
    for (const auto& c : s.claims) claims.claims.push_back({c.text, false, ""});
    std::cerr << "redist: " << s.name << " not run on " << o.platform << ": " << e.what() << '\n';
    return;
  }
  claims.claims = report(o, s, records, done);
}

int run_scenarios(const ReplayOptions& o, ScenarioUse use) {
  std::vector<std::string> files = o.files;
  if (o.all) {
    for (const auto& entry : fs::directory_iterator(repo_root() / "scenarios")) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
  }
  if (files.empty()) throw std::invalid_argument("no scenario given (name files, or --all)");
  const auto shard = o.shard.empty() ? std::nullopt : std::optional<Shard>(parse_shard(o.shard));
  // Validate every file before running anything: a bad file costs nothing and leaves nothing.
  std::vector<Scenario> scenarios;
  for (const auto& file : files) {
    scenarios.push_back(load_scenario(file, sim::experiment_specs(), repo_root().string(), use, o.max_runs));
  }
  std::vector<ScenarioClaims> what_if;
  if (!o.platform.empty()) what_if = move_to_platform(scenarios, find_platform(o.platform));
  // Before the first simulation: a folder we cannot write, or one another run writes, costs nothing.
  os::ensure_writable_folder(o.out);
  const os::FolderLock lock(o.out);
  Reported done;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const auto& s = scenarios[i];
    if (use == ScenarioUse::Replay && !what_if.empty()) {
      run_what_if(o, s, what_if[i], done);
      continue;
    }
    if (use == ScenarioUse::Replay) {
      report(o, s, sim::run_scenario(s, o.jobs, ProgressBar(s.name, o.progress_seconds)), done);
      continue;
    }
    const std::string fingerprint = scenario_fingerprint(files[i]);
    Journal journal(o.out, shard ? shard_file_name(s.name, *shard) : s.name, fingerprint);
    const auto lines = run_sweep_jobs(o, s, shard, journal);
    if (shard) {
      ShardFile slice{s.name, fs::absolute(files[i]).string(), fingerprint, *shard, lines.size(), {}};
      for (std::size_t job = 0; job < lines.size(); ++job) {
        if (lines[job].empty()) continue;
        // A slice fails as the whole sweep would, on its first failed run (the journal keeps the rest).
        const auto line = nlohmann::json::parse(lines[job]);
        if (line.contains("error")) throw std::runtime_error(line["error"].get<std::string>());
        slice.lines[job] = lines[job];
      }
      write_shard_file(o.out, slice);
    } else {
      report(o, s, sim::records_from_lines(s, lines), done);
    }
    journal.done();
  }
  if (use == ScenarioUse::Replay && scenarios.size() > 1) write_fidelity_summary(done.fidelity, fs::path(o.out), plot_scripts(o));
  if (!what_if.empty()) {
    const auto beside = o.beside.empty() ? std::nullopt : std::optional<fs::path>(o.beside);
    const auto table = what_if_claims_markdown(what_if, o.platform, beside);
    os::write_file_atomically(fs::path(o.out) / "CLAIMS.md", table);
    if (!o.json) std::cout << table << std::flush;
  }
  return finish(o, done);
}

// `redist merge DIR...`: the slices of each sweep, checked, then the reports of the unsharded sweep.
int merge_sweeps(const ReplayOptions& o) {
  const auto sweeps = read_complete_sweeps(o.files);
  std::vector<std::pair<Scenario, std::vector<std::string>>> merged;
  for (const auto& [name, slices] : sweeps) {
    const std::string& file = slices.front().file;
    if (!fs::is_regular_file(file) || scenario_fingerprint(file) != slices.front().fingerprint) {
      throw std::invalid_argument("merge: " + name + ": " + file + " is gone or changed since its slices ran");
    }
    std::vector<std::string> lines(slices.front().jobs);
    for (const auto& slice : slices) {
      for (const auto& [job, line] : slice.lines) lines.at(job) = line;
    }
    merged.emplace_back(load_scenario(file, sim::experiment_specs(), repo_root().string(), ScenarioUse::Sweep, o.max_runs),
                        std::move(lines));
  }
  os::ensure_writable_folder(o.out);
  const os::FolderLock lock(o.out);
  Reported done;
  for (const auto& [scenario, lines] : merged) report(o, scenario, sim::records_from_lines(scenario, lines), done);
  return finish(o, done);
}

void add_common_options(CLI::App* app, ReplayOptions& o) {
  app->add_option("--out", o.out, "directory for the reports")->capture_default_str();
  app->add_option("--jobs", o.jobs, "simulations run in parallel")->check(CLI::Range(1, 256))->capture_default_str();
  app->add_flag("!--no-plot", o.plot, "skip the PNG plots");
  app->add_flag("--json", o.json, "print the JSON reports instead of the Markdown tables");
  app->add_option("--max-runs", o.max_runs, "refuse a scenario of more runs (parameter sets x methods)")
      ->check(CLI::Range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max()))
      ->capture_default_str();
  app->add_option("--progress-seconds", o.progress_seconds,
                  "when stderr is not a terminal: seconds between progress lines")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  add_max_memory_option(app);
}

}  // namespace

void add_replay_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ReplayOptions>();
  auto* app = root.add_subcommand("replay", "Replay published experiments (scenarios/*.yaml) beside their published values");
  app->add_option("files", o->files, "scenario files")->check(CLI::ExistingFile);
  app->add_flag("--all", o->all, "every scenario in scenarios/");
  app->add_flag("--check-claims", o->check_claims, "exit non-zero when a claim of a paper does not hold");
  auto* platform = app->add_option("--platform", o->platform,
                                   "what-if: replay on this platform (a file, or a name in platforms/) instead of each "
                                   "scenario's own; the papers' claims are checked there and listed in CLAIMS.md");
  app->add_option("--beside", o->beside,
                  "what-if: the output folder of an ordinary replay, whose claims CLAIMS.md shows beside")
      ->needs(platform)
      ->check(CLI::ExistingDirectory);
  add_common_options(app, *o);
  commands.push_back({app, [o] { return run_scenarios(*o, ScenarioUse::Replay); }});
}

void add_sweep_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ReplayOptions>();
  auto* app = root.add_subcommand("sweep", "Run a parameter sweep (a scenario without published values)");
  app->add_option("files", o->files, "sweep files")->required()->check(CLI::ExistingFile);
  app->add_option("--shard", o->shard,
                  "run only slice K of N (K/N, 0 <= K < N; auto/N: K from SLURM_ARRAY_TASK_ID) and write "
                  "NAME.shard-K-of-N.json for `redist merge`");
  app->add_flag("--resume", o->resume, "skip the runs an interrupted sweep into the same --out has finished");
  add_common_options(app, *o);
  commands.push_back({app, [o] { return run_scenarios(*o, ScenarioUse::Sweep); }});
}

void add_merge_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ReplayOptions>();
  auto* app = root.add_subcommand("merge", "Merge the slices of sharded sweeps (redist sweep --shard) into their reports");
  app->add_option("folders", o->files, "folders holding NAME.shard-K-of-N.json files")->required();
  add_common_options(app, *o);
  commands.push_back({app, [o] { return merge_sweeps(*o); }});
}

}  // namespace redist::cli
