#include "redist/analysis/report_files.hpp"

#include <algorithm>

#include "redist/analysis/plot_script.hpp"
#include "redist/os/atomic_file.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;

// The x axis of a plot: the first swept parameter whose values are all numbers (N, block sizes...).
std::string x_axis(const Scenario& s) {
  for (const auto& axis : s.sweep) {
    if (std::all_of(axis.values.begin(), axis.values.end(), [](const auto& v) { return v.is_number(); })) return axis.name;
  }
  return s.sweep.empty() ? "" : s.sweep.front().name;
}

// The script writes the PNG under a temporary name of its own; it is published whole or not at all.
void plot(const Scenario& s, const fs::path& csv, const fs::path& json, const fs::path& png, const fs::path& scripts) {
  os::PendingFile pending(png);
  std::vector<std::string> args{"--csv", csv.string(), "--json", json.string(), "--out", pending.path().string(),
                                "--x", x_axis(s), "--unit", s.unit, "--title",
                                s.name + (s.table.empty() ? "" : " — " + s.table)};
  for (const auto& method : s.methods) {
    args.push_back("--method");
    args.push_back(method.name);
  }
  run_plot_script(scripts / "plot_scenario.py", args, pending.path());
  pending.publish();
}

}  // namespace

void write_scenario_reports(const fs::path& out, const Scenario& s, const std::vector<Record>& records,
                            const std::string& markdown, const nlohmann::ordered_json& json, const PlotScripts& plots) {
  os::write_file_atomically(out / (s.name + ".md"), markdown);
  os::write_file_atomically(out / (s.name + ".csv"), csv_report(s, records));
  os::write_file_atomically(out / (s.name + ".json"), json.dump(2) + "\n");
  if (plots.enabled) plot(s, out / (s.name + ".csv"), out / (s.name + ".json"), out / (s.name + ".png"), plots.folder);
}

void write_fidelity_summary(const std::vector<ScenarioFidelity>& fidelity, const fs::path& out, const PlotScripts& plots) {
  os::write_file_atomically(out / "SUMMARY.md", fidelity_markdown(fidelity));
  os::write_file_atomically(out / "summary.json", fidelity_json(fidelity).dump(2) + "\n");
  if (!plots.enabled) return;
  os::PendingFile pending(out / "fidelity.png");
  run_plot_script(plots.folder / "plot_fidelity.py",
                  {"--summary", (out / "summary.json").string(), "--out", pending.path().string()}, pending.path());
  pending.publish();
}

}  // namespace redist
