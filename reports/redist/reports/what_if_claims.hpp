// A what-if replay (`redist replay --platform FILE`) runs the papers' experiments on another machine
// model. What carries over is the papers' claims: this table shows each claim on that machine beside
// its status on the paper's own machine, read from the JSON reports of an ordinary replay.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "redist/reports/replay_report.hpp"
#include "redist/experiments/scenario.hpp"

namespace redist {

/// The claims of one scenario replayed on the what-if platform.
struct ScenarioClaims {
  std::string scenario;
  std::string own_platform;  ///< the file the scenario names (the paper's machine)
  std::vector<ClaimResult> claims;
  /// Why the scenario could not run on the platform (e.g. more ranks than it has hosts), or empty.
  /// Its claims are then listed as not run (`claims` holds their texts).
  std::string not_run;
};

/// Makes the scenarios a what-if replay on `platform`: each runs there instead of on its own machine,
/// whose published numbers are then not compared (no errors, no ordering: they were measured there);
/// its claims are still checked. Returns one entry per scenario, its claims still to be filled in.
std::vector<ScenarioClaims> move_to_platform(std::vector<Scenario>& scenarios, const std::string& platform);

/// Claim text -> holds, from a scenario's JSON report (`metrics.claims`); empty when the file is
/// absent. Throws std::runtime_error naming the file when it is not a report.
std::map<std::string, bool> claims_in_report(const std::filesystem::path& json_report);

/// Markdown: one row per claim, its status in `beside` (the folder of an ordinary replay, if given)
/// and on `platform`, then the totals.
std::string what_if_claims_markdown(const std::vector<ScenarioClaims>& scenarios, const std::string& platform,
                                    const std::optional<std::filesystem::path>& beside);

}  // namespace redist
