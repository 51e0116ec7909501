#include "redist/experiments/replay.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/reports/claims.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/reports/fidelity_summary.hpp"
#include "redist/experiments/platform_search.hpp"
#include "redist/experiments/sweep_shards.hpp"
#include "redist/reports/what_if_claims.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/os/folder_lock.hpp"
#include "redist/os/outputs_apart.hpp"
#include "redist/os/utf8.hpp"

namespace redist::sim {
namespace {

namespace fs = std::filesystem;

std::ostream& out(const ReplaySettings& o) { return *o.out_stream; }
std::ostream& err(const ReplaySettings& o) { return *o.err_stream; }

std::function<void(const Progress&)> progress(const ReplaySettings& o, const std::string& scenario) {
  if (o.progress) return o.progress(scenario);
  return [](const Progress&) {};
}

// A platform named on the command line: a file, or one of the bundled platforms/.
std::string find_platform(const std::string& name, const fs::path& repo_root) {
  if (const auto found = find_platform_file(name, "", repo_root)) {
    // The reports and CLAIMS.md name it: a name they cannot hold fails now, not after the runs.
    os::require_utf8(found->filename().string(), "--platform", "the reports are UTF-8; rename the file");
    return fs::absolute(*found).string();
  }
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
std::vector<ClaimResult> report(const ReplaySettings& o, const Scenario& s, const std::vector<Record>& records,
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
    out(o) << markdown << '\n' << std::flush;
  }
  try {
    write_scenario_reports(fs::path(o.out), s, records, markdown, json, o.plots);
  } catch (const std::exception& e) {
    if (o.json) out(o) << done.all.dump() << '\n';
    out(o).flush();
    throw std::runtime_error(std::string(e.what()) + " (the results of " + s.name +
                             " are on standard output; earlier files are unchanged)");
  }
  return metrics.claims;
}

// The end of a run: the JSON reports (--json), and the claims that fail when they must hold.
int finish(const ReplaySettings& o, const Reported& done) {
  if (o.json) out(o) << done.all.dump() << '\n';
  if (o.check_claims && done.failed_claims > 0) {
    out(o).flush();
    throw std::runtime_error(fmt::format("{} claim(s) of the papers do not hold on the simulated values (see the reports)",
                                         done.failed_claims));
  }
  return 0;
}

// The result lines of a sweep's jobs, journalled as they arrive so that --resume can skip them;
// with --shard, only the slice's jobs (the others stay empty).
std::vector<std::string> run_sweep_jobs(const ReplaySettings& o, const Scenario& s, const std::optional<Shard>& shard,
                                        Journal& journal) {
  JobSelection selection;
  if (shard) {
    selection.shard = shard->index;
    selection.shards = shard->count;
  }
  if (o.resume) selection.known = journal.finished();
  journal.start(selection.known);
  selection.on_result = [&journal](const std::string& line) { journal.add(line); };
  return run_jobs(s, o.jobs, progress(o, s.name), selection);
}

// One scenario of a what-if replay. The other machine may not hold every experiment (a calibrated
// platform of a few hosts, a paper's 256 ranks): such a scenario is reported as not run there, with
// the reason, and the others go on.
void run_what_if(const ReplaySettings& o, const Scenario& s, ScenarioClaims& claims, Reported& done) {
  std::vector<Record> records;
  try {
    records = run_scenario(s, o.jobs, progress(o, s.name));
  } catch (const std::exception& e) {
    claims.not_run = e.what();
    for (const auto& c : s.claims) claims.claims.push_back({c.text, false, ""});
    err(o) << "redist: " << s.name << " not run on " << o.platform << ": " << e.what() << '\n';
    return;
  }
  claims.claims = report(o, s, records, done);
}

// Two inputs that would write the same files: the second's reports would replace the first's (and
// a replay's summary list the scenario twice). Refused before anything runs.
void refuse_shared_outputs(const std::vector<std::string>& files, const std::vector<Scenario>& scenarios, bool sharded) {
  std::map<std::string, std::size_t> first;  // scenario name -> index of its first file
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const auto [at, inserted] = first.emplace(scenarios[i].name, i);
    if (!inserted) {
      const std::string& other = files[at->second];
      throw std::invalid_argument(
          (other == files[i] ? "the file " + other + " is given twice"
                             : other + " and " + files[i] + " both name scenario " + scenarios[i].name) +
          ": both would write the reports " + scenarios[i].name + ".* (run them into different --out folders)");
    }
    // A slice names its scenario file: a name the JSON slice cannot hold fails here, not after the runs.
    if (sharded) os::require_utf8(fs::absolute(files[i]).string(), files[i], "a slice file names its scenario file in UTF-8");
  }
}

// Every file the run will write, proved writable before the first simulation: a report path taken
// by a folder (or a device) fails now, not after the runs. Each probe is a temporary, removed at once.
void check_report_targets(const fs::path& out, const std::vector<std::string>& names, const PlotScripts& plots,
                          const std::vector<os::NamedFile>& inputs) {
  std::vector<os::NamedFile> outputs;
  for (const auto& name : names) outputs.push_back({out / name, "the report"});
  os::refuse_outputs_onto_inputs(outputs, inputs);
  for (const auto& name : names) {
    const bool plot = name.size() > 4 && name.substr(name.size() - 4) == ".png";
    if (plot && !plots.enabled) continue;
    const os::PendingFile probe(out / name);
  }
}

std::vector<std::string> report_names(const std::string& scenario) {
  return {scenario + ".md", scenario + ".csv", scenario + ".json", scenario + ".png"};
}

}  // namespace

int run_scenarios(const ReplaySettings& o, const std::vector<std::string>& files, ScenarioUse use) {
  if (files.empty()) throw std::invalid_argument("no scenario given (name files, or --all)");
  const auto shard = o.shard.empty() ? std::nullopt : std::optional<Shard>(parse_shard(o.shard));
  // Validate every file before running anything: a bad file costs nothing and leaves nothing.
  std::vector<Scenario> scenarios;
  for (const auto& file : files) {
    scenarios.push_back(load_scenario(file, experiment_specs(), o.repo_root.string(), use, o.max_runs));
  }
  refuse_shared_outputs(files, scenarios, shard.has_value());
  std::vector<ScenarioClaims> what_if;
  if (!o.platform.empty()) what_if = move_to_platform(scenarios, find_platform(o.platform, o.repo_root));
  // The reports CLAIMS.md is written beside are read now: a damaged one fails before the runs, not after.
  if (!what_if.empty() && !o.beside.empty()) {
    for (const auto& s : scenarios) claims_in_report(fs::path(o.beside) / (s.name + ".json"));
  }
  // The list of runs is held whole (each run's parameters): one that would not fit is refused
  // before it is listed, rather than growing for minutes into the OOM killer.
  for (const auto& s : scenarios) {
    const std::uint64_t bytes = run_list_bytes(s);
    require_memory(bytes == UINT64_MAX ? std::nullopt : std::optional<std::uint64_t>(bytes),
                   s.name + ": the list of its runs", "sweep fewer values, or split the sweep into several scenarios");
  }
  // Every run of every scenario, before the first runs (a what-if platform reports its refusals per
  // scenario); a long check shows its progress as the runs do.
  if (what_if.empty()) {
    for (const auto& s : scenarios) check_runs(s, progress(o, s.name + " (checking)"));
  }
  // Before the first simulation: a folder we cannot write, or one another run writes, costs nothing.
  os::ensure_writable_folder(o.out);
  const os::FolderLock lock(o.out);
  std::vector<std::string> targets;
  for (const auto& s : scenarios) {
    if (shard) {
      targets.push_back(shard_file_name(s.name, *shard));
    } else {
      for (auto& name : report_names(s.name)) targets.push_back(std::move(name));
    }
  }
  if (use == ScenarioUse::Replay && scenarios.size() > 1) {
    for (const char* name : {"SUMMARY.md", "summary.json", "fidelity.png"}) targets.emplace_back(name);
  }
  if (!what_if.empty()) targets.emplace_back("CLAIMS.md");
  std::vector<os::NamedFile> inputs;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    inputs.push_back({files[i], "scenario"});
    inputs.push_back({scenarios[i].platform, "platform"});
    if (!o.beside.empty()) inputs.push_back({fs::path(o.beside) / (scenarios[i].name + ".json"), "--beside report"});
  }
  check_report_targets(o.out, targets, o.plots, inputs);
  Reported done;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const auto& s = scenarios[i];
    if (use == ScenarioUse::Replay && !what_if.empty()) {
      run_what_if(o, s, what_if[i], done);
      continue;
    }
    if (use == ScenarioUse::Replay) {
      report(o, s, run_scenario(s, o.jobs, progress(o, s.name)), done);
      continue;
    }
    const std::string fingerprint = inputs_fingerprint({files[i], s.platform});
    Journal journal(o.out, shard ? shard_file_name(s.name, *shard) : s.name, fingerprint,
                    s.parameter_sets().size() * s.methods.size());
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
      report(o, s, records_from_lines(s, lines), done);
    }
    journal.done();
  }
  if (use == ScenarioUse::Replay && scenarios.size() > 1) write_fidelity_summary(done.fidelity, fs::path(o.out), o.plots);
  if (!what_if.empty()) {
    const auto beside = o.beside.empty() ? std::nullopt : std::optional<fs::path>(o.beside);
    const auto table = what_if_claims_markdown(what_if, o.platform, beside);
    os::write_file_atomically(fs::path(o.out) / "CLAIMS.md", table);
    if (!o.json) out(o) << table << std::flush;
  }
  return finish(o, done);
}

int merge_sweeps(const ReplaySettings& o, const std::vector<std::string>& folders) {
  const auto sweeps = read_complete_sweeps(folders);
  std::vector<std::pair<Scenario, std::vector<std::string>>> merged;
  for (const auto& [name, slices] : sweeps) {
    const std::string& file = slices.front().file;
    if (!fs::is_regular_file(file)) throw std::invalid_argument("merge: " + name + ": " + file + " is gone since its slices ran");
    Scenario scenario = load_scenario(file, experiment_specs(), o.repo_root.string(), ScenarioUse::Sweep, o.max_runs);
    if (inputs_fingerprint({file, scenario.platform}) != slices.front().fingerprint) {
      throw std::invalid_argument("merge: " + name + ": " + file + " or its platform " + scenario.platform +
                                  " changed since its slices ran (their results are of other inputs)");
    }
    std::vector<std::string> lines(slices.front().jobs);
    for (const auto& slice : slices) {
      for (const auto& [job, line] : slice.lines) lines.at(job) = line;
    }
    merged.emplace_back(std::move(scenario), std::move(lines));
  }
  os::ensure_writable_folder(o.out);
  const os::FolderLock lock(o.out);
  std::vector<std::string> targets;
  std::vector<os::NamedFile> inputs;
  for (const auto& [scenario, lines] : merged) {
    for (auto& name : report_names(scenario.name)) targets.push_back(std::move(name));
    inputs.push_back({scenario.file, "scenario"});
    inputs.push_back({scenario.platform, "platform"});
  }
  check_report_targets(o.out, targets, o.plots, inputs);
  Reported done;
  for (const auto& [scenario, lines] : merged) report(o, scenario, records_from_lines(scenario, lines), done);
  return finish(o, done);
}

}  // namespace redist::sim
