#include "redist/reports/report_files.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "redist/reports/plot_script.hpp"
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

// Publishes every file, once all are written: a late failure (a plot script, a full disk) leaves
// none of them, and the earlier files stay as they were.
void publish_together(const std::vector<os::PendingFile*>& files) {
  for (auto* file : files) file->publish();
}

// The script writes the PNG into `pending`, from the CSV and JSON not yet published.
void plot(const Scenario& s, const fs::path& csv, const fs::path& json, os::PendingFile& pending, const fs::path& scripts) {
  std::vector<std::string> args{"--csv", csv.string(), "--json", json.string(), "--out", pending.path().string(),
                                "--x", x_axis(s), "--unit", s.unit, "--title",
                                s.name + (s.table.empty() ? "" : " — " + s.table)};
  for (const auto& method : s.methods) {
    args.push_back("--method");
    args.push_back(method.name);
  }
  run_plot_script(scripts / "plot_scenario.py", args, pending.path());
}

}  // namespace

void write_scenario_reports(const fs::path& out, const Scenario& s, const std::vector<Record>& records,
                            const std::string& markdown, const nlohmann::ordered_json& json, const PlotScripts& plots) {
  os::PendingFile md(out / (s.name + ".md")), csv(out / (s.name + ".csv")), js(out / (s.name + ".json"));
  std::optional<os::PendingFile> png;
  if (plots.enabled) png.emplace(out / (s.name + ".png"));
  md.write(markdown);
  csv.write(csv_report(s, records));
  js.write(json.dump(2) + "\n");
  if (png) plot(s, csv.path(), js.path(), *png, plots.folder);
  std::vector<os::PendingFile*> files{&md, &csv, &js};
  if (png) files.push_back(&*png);
  publish_together(files);
}

void write_fidelity_summary(const std::vector<ScenarioFidelity>& fidelity, const fs::path& out, const PlotScripts& plots) {
  os::PendingFile md(out / "SUMMARY.md"), js(out / "summary.json");
  std::optional<os::PendingFile> png;
  if (plots.enabled) png.emplace(out / "fidelity.png");
  md.write(fidelity_markdown(fidelity));
  js.write(fidelity_json(fidelity).dump(2) + "\n");
  if (png) {  // the script reads the scenarios' reports beside the summary
    run_plot_script(plots.folder / "plot_fidelity.py", {"--summary", js.path().string(), "--out", png->path().string()},
                    png->path());
  }
  std::vector<os::PendingFile*> files{&md, &js};
  if (png) files.push_back(&*png);
  publish_together(files);
}

}  // namespace redist
