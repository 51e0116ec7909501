// The files a replay, sweep or merge writes under its output folder, each published whole
// (redist/os/atomic_file.hpp): per scenario NAME.md, NAME.csv, NAME.json and the plot NAME.png
// (reports/plot_scenario.py); for a replay of several scenarios SUMMARY.md, summary.json and
// fidelity.png (reports/plot_fidelity.py, simulated against published, every cell).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/reports/fidelity_summary.hpp"
#include "redist/reports/replay_report.hpp"
#include "redist/experiments/scenario.hpp"

namespace redist {

/// Where the plots come from: the folder of plot_scenario.py and plot_fidelity.py, or none.
struct PlotScripts {
  bool enabled = true;
  std::filesystem::path folder;  ///< the repository's reports/
};

/// NAME.md (`markdown`), NAME.csv, NAME.json (`json`) and, with plots, NAME.png of one scenario.
void write_scenario_reports(const std::filesystem::path& out, const Scenario& scenario, const std::vector<Record>& records,
                            const std::string& markdown, const nlohmann::ordered_json& json, const PlotScripts& plots);

/// SUMMARY.md, summary.json and, with plots, fidelity.png (which reads the scenarios' JSON reports
/// beside summary.json).
void write_fidelity_summary(const std::vector<ScenarioFidelity>& fidelity, const std::filesystem::path& out,
                            const PlotScripts& plots);

}  // namespace redist
