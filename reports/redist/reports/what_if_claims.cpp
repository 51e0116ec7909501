#include "redist/reports/what_if_claims.hpp"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace redist {
namespace fs = std::filesystem;

std::vector<ScenarioClaims> move_to_platform(std::vector<Scenario>& scenarios, const std::string& platform) {
  std::vector<ScenarioClaims> claims;
  for (auto& s : scenarios) {
    claims.push_back({s.name, s.platform, {}, {}});
    s.platform = platform;
    s.published.clear();
  }
  return claims;
}

std::map<std::string, bool> claims_in_report(const fs::path& json_report) {
  std::map<std::string, bool> out;
  std::ifstream in(json_report);
  if (!in) return out;
  const auto refuse = [&](const std::string& problem) {
    throw std::runtime_error(json_report.string() + " is not a replay report: " + problem);
  };
  const auto shown = [](const nlohmann::json& value) {
    const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
  };
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    const std::string what = e.what();
    refuse("not JSON: " + what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2));
  }
  if (!report.is_object() || !report.contains("metrics")) refuse("'metrics' is missing");
  const auto& metrics = report["metrics"];
  if (!metrics.is_object() || !metrics.contains("claims")) refuse("'metrics.claims' is missing");
  const auto& claims = metrics["claims"];
  if (!claims.is_array()) refuse("'metrics.claims' is " + shown(claims) + " (it must be a list)");
  for (std::size_t k = 0; k < claims.size(); ++k) {
    const std::string key = "metrics.claims[" + std::to_string(k) + "]";
    const auto& c = claims[k];
    if (!c.is_object() || !c.contains("claim") || !c.contains("holds")) refuse("'" + key + "' needs 'claim' and 'holds'");
    if (!c["claim"].is_string()) refuse("'" + key + ".claim' is " + shown(c["claim"]) + " (it must be a string)");
    if (!c["holds"].is_boolean()) refuse("'" + key + ".holds' is " + shown(c["holds"]) + " (it must be true or false)");
    out[c["claim"].get<std::string>()] = c["holds"].get<bool>();
  }
  return out;
}

namespace {

std::string status(bool holds) { return holds ? "holds" : "FAILS"; }

// Markdown cells may not hold a '|'.
std::string escaped_cell(std::string text) {
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
  return text;
}

}  // namespace

std::string what_if_claims_markdown(const std::vector<ScenarioClaims>& scenarios, const std::string& platform,
                                    const std::optional<fs::path>& beside) {
  const std::string there = fs::path(platform).filename().string();
  std::string out = fmt::format("# The papers' claims on {}\n\n", there);
  out += beside ? fmt::format("Each claim replayed on `{}`, beside its status on the paper's own machine (the reports in "
                              "`{}`; — where that replay did not check it).\n\n",
                              there, beside->string())
                : fmt::format("Each claim replayed on `{}`.\n\n", there);
  out += fmt::format("| scenario | paper's machine | claim | on the paper's machine | on {} |\n|---|---|---|---|---|\n", there);
  int total = 0, holding_here = 0, holding_own = 0, checked_own = 0, not_run = 0;
  for (const auto& s : scenarios) {
    const auto own = beside ? claims_in_report(*beside / (s.scenario + ".json")) : std::map<std::string, bool>{};
    for (const auto& c : s.claims) {
      const auto it = own.find(c.claim);
      ++total;
      if (s.not_run.empty()) {
        holding_here += c.holds;
      } else {
        ++not_run;
      }
      if (it != own.end()) {
        ++checked_own;
        holding_own += it->second;
      }
      out += fmt::format("| {} | {} | {} | {} | {} |\n", s.scenario, fs::path(s.own_platform).filename().string(),
                         escaped_cell(c.claim), it == own.end() ? "—" : status(it->second),
                         s.not_run.empty() ? status(c.holds) : "not run: " + escaped_cell(s.not_run));
    }
  }
  out += fmt::format("\nClaims holding on {}: {}/{}", there, holding_here, total - not_run);
  if (not_run > 0) out += fmt::format(" ({} more not run there)", not_run);
  if (beside) out += fmt::format("; on the papers' machines: {}/{}", holding_own, checked_own);
  return out + ".\n";
}

}  // namespace redist
