#include "redist/reports/fidelity_summary.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace redist {
namespace {

bool is_fitted(const std::string& platform_file) {
  std::ifstream in(platform_file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str().find(kFittedPlatformMarker) != std::string::npos;
}

std::optional<double> percent_in(const std::string& text, const std::string& before) {
  const std::regex number(before + "([0-9]+(\\.[0-9]+)?)%");
  std::smatch match;
  if (!std::regex_search(text, match, number)) return std::nullopt;
  return std::stod(match[1]) / 100;
}

// Figures pooled over several scenarios: cells and rows are pooled, not medians averaged.
struct Pooled {
  int scenarios = 0;
  std::vector<double> errors;
  int ordering_rows = 0, ordering_agreeing = 0, claims = 0, claims_holding = 0;

  void add(const ScenarioFidelity& s) {
    ++scenarios;
    errors.insert(errors.end(), s.errors.begin(), s.errors.end());
    ordering_rows += s.ordering_rows;
    ordering_agreeing += s.ordering_agreeing;
    claims += s.claims;
    claims_holding += s.claims_holding;
  }
};

std::optional<double> median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::optional<double> ordering(int agreeing, int rows) {
  return rows == 0 ? std::nullopt : std::optional<double>(static_cast<double>(agreeing) / rows);
}

const std::vector<std::string> kRoles = {"train", "test", "claims"};

std::string percent(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", 100 * *v) : "—"; }

std::string ordering_text(int agreeing, int rows) {
  return rows == 0 ? "—" : fmt::format("{:.0f}% of {}", 100.0 * agreeing / rows, rows);
}

std::string claims_text(int holding, int claims) { return claims == 0 ? "—" : fmt::format("{}/{}", holding, claims); }

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

nlohmann::ordered_json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// Appends the pooled figures to `entry` (`with_count`: also the number of scenarios).
void add_pooled(nlohmann::ordered_json& entry, const Pooled& p, bool with_count) {
  if (with_count) entry["scenarios"] = p.scenarios;
  entry["cells"] = p.errors.size();
  entry["median_relative_error"] = optional_json(median(p.errors));
  entry["ordering_agreement"] = optional_json(ordering(p.ordering_agreeing, p.ordering_rows));
  entry["ordering_rows"] = p.ordering_rows;
  entry["claims_holding"] = p.claims_holding;
  entry["claims"] = p.claims;
}

// (paper, role) -> pooled figures, in paper then role order.
std::vector<std::pair<std::pair<std::string, std::string>, Pooled>> by_paper(const std::vector<ScenarioFidelity>& all) {
  std::vector<std::pair<std::pair<std::string, std::string>, Pooled>> out;
  std::set<std::string> papers;
  for (const auto& s : all) papers.insert(paper_label(s.paper));
  for (const auto& paper : papers) {
    for (const auto& role : kRoles) {
      Pooled p;
      for (const auto& s : all) {
        if (paper_label(s.paper) == paper && s.role == role) p.add(s);
      }
      if (p.scenarios > 0) out.push_back({{paper, role}, p});
    }
  }
  return out;
}

std::vector<std::pair<std::string, Pooled>> overall(const std::vector<ScenarioFidelity>& all) {
  std::vector<std::pair<std::string, Pooled>> out;
  for (const auto& role : kRoles) {
    Pooled p;
    for (const auto& s : all) {
      if (s.role == role) p.add(s);
    }
    if (p.scenarios > 0) out.emplace_back(role, p);
  }
  return out;
}

std::string pooled_cells(const Pooled& p) {
  return fmt::format("{} | {} | {} | {} | {} |", p.scenarios, p.errors.size(), percent(median(p.errors)),
                     ordering_text(p.ordering_agreeing, p.ordering_rows), claims_text(p.claims_holding, p.claims));
}

}  // namespace

std::optional<FitErrors> read_fit_errors(const std::string& platform_file) {
  std::ifstream in(platform_file);
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find(kFitErrorsMarker);
    if (at == std::string::npos) continue;
    std::string text = line.substr(at);
    std::string next;  // the sentence may go on on the next line
    if (std::getline(in, next)) text += " " + next;
    FitErrors f;
    f.train = percent_in(text, "train median relative error ");
    f.cross_validated = percent_in(text, "cross-validated ");
    std::smatch match;
    if (std::regex_search(text, match, std::regex("\\((leave one [^;)]*)"))) {
      f.validation = match[1];
    } else if (std::regex_search(text, match, std::regex("(not cross-validated[^\\n]*)"))) {
      f.validation = match[1];
    }
    return f;
  }
  return std::nullopt;
}

std::string paper_label(const std::string& paper_file) {
  const std::size_t digits = paper_file.find_first_not_of("0123456789");
  return digits == 0 || paper_file.empty() ? paper_file : paper_file.substr(0, digits);
}

ScenarioFidelity scenario_fidelity(const Scenario& s, const std::vector<Record>& records, const ComparisonMetrics& metrics) {
  ScenarioFidelity f;
  f.scenario = s.name;
  f.paper = s.paper;
  f.role = s.role;
  f.platform = std::filesystem::path(s.platform).filename().string();
  f.fitted = is_fitted(s.platform);
  if (f.fitted) f.fit = read_fit_errors(s.platform);
  std::set<std::string> work;
  for (const auto& r : records) {
    if (r.params.contains("work")) {
      const auto& w = r.params["work"];
      work.insert(w.is_string() ? w.get<std::string>() : w.dump());
    }
    if (r.published && *r.published > 0) f.errors.push_back(std::abs(r.simulated - *r.published) / *r.published);
  }
  f.work.assign(work.begin(), work.end());
  f.ordering_rows = metrics.ordering_rows;
  f.ordering_agreeing = metrics.ordering_agreement
                            ? static_cast<int>(std::lround(*metrics.ordering_agreement * metrics.ordering_rows))
                            : 0;
  f.claims = static_cast<int>(metrics.claims.size());
  for (const auto& c : metrics.claims) f.claims_holding += c.holds ? 1 : 0;
  return f;
}

std::string fidelity_markdown(const std::vector<ScenarioFidelity>& all) {
  std::string out =
      "# Fidelity of the replays\n\n"
      "Relative error: |simulated − published| / published per published cell; ordering: rows (parameters and "
      "phase) where the simulated values order every pair of methods the published values order (methods "
      "printed as equal may come in any order); claims: the paper's "
      "statements that hold on the simulated values. Train scenarios may be fitted on (`redist fit`), test "
      "scenarios never are.\n\n"
      "| scenario | role | platform | work | cells | median relative error | ordering | claims |\n"
      "|---|---|---|---|---:|---:|---:|---:|\n";
  for (const auto& s : all) {
    Pooled p;
    p.add(s);
    out += fmt::format("| {} | {} | {} ({}) | {} | {} | {} | {} | {} |\n", s.scenario, s.role, s.platform,
                       s.fitted ? "fitted" : "derived", s.work.empty() ? "—" : joined(s.work), s.errors.size(),
                       percent(median(s.errors)), ordering_text(s.ordering_agreeing, s.ordering_rows),
                       claims_text(s.claims_holding, s.claims));
  }
  std::map<std::string, const ScenarioFidelity*> fitted;  // per fitted platform, its first scenario
  for (const auto& s : all) {
    if (s.fitted && s.fit && !fitted.count(s.platform)) fitted[s.platform] = &s;
  }
  if (!fitted.empty()) {
    out += "\n## Fitted platforms\n\nAs the fitted file's header gives them: the median relative error on its train "
           "cells, and cross-validated — each cell scored by the fit that left its group of cells out (`redist fit`).\n\n"
           "| platform | train median relative error | cross-validated | cross-validation |\n|---|---:|---:|---|\n";
    for (const auto& [platform, s] : fitted) {
      out += fmt::format("| {} | {} | {} | {} |\n", platform, percent(s->fit->train), percent(s->fit->cross_validated),
                         s->fit->validation.empty() ? "—" : s->fit->validation);
    }
  }
  out += "\n## Per paper\n\n| paper | role | scenarios | cells | median relative error | ordering | claims |\n"
         "|---|---|---:|---:|---:|---:|---:|\n";
  for (const auto& [key, p] : by_paper(all)) out += fmt::format("| {} | {} | {}\n", key.first, key.second, pooled_cells(p));
  out += "\n## Overall\n\n| role | scenarios | cells | median relative error | ordering | claims |\n"
         "|---|---:|---:|---:|---:|---:|\n";
  for (const auto& [role, p] : overall(all)) out += fmt::format("| {} | {}\n", role, pooled_cells(p));
  return out;
}

nlohmann::ordered_json fidelity_json(const std::vector<ScenarioFidelity>& all) {
  nlohmann::ordered_json scenarios = nlohmann::ordered_json::array();
  for (const auto& s : all) {
    Pooled p;
    p.add(s);
    nlohmann::ordered_json entry = {{"scenario", s.scenario}, {"paper", paper_label(s.paper)}, {"role", s.role},
                                    {"platform", s.platform}, {"platform_kind", s.fitted ? "fitted" : "derived"},
                                    {"work", s.work.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.work)}};
    add_pooled(entry, p, false);
    scenarios.push_back(std::move(entry));
  }
  nlohmann::ordered_json papers = nlohmann::ordered_json::array();
  for (const auto& [key, p] : by_paper(all)) {
    nlohmann::ordered_json entry = {{"paper", key.first}, {"role", key.second}};
    add_pooled(entry, p, true);
    papers.push_back(std::move(entry));
  }
  nlohmann::ordered_json total = nlohmann::ordered_json::array();
  for (const auto& [role, p] : overall(all)) {
    nlohmann::ordered_json entry = {{"role", role}};
    add_pooled(entry, p, true);
    total.push_back(std::move(entry));
  }
  nlohmann::ordered_json fits = nlohmann::ordered_json::array();
  std::set<std::string> seen;
  for (const auto& s : all) {
    if (!s.fitted || !s.fit || !seen.insert(s.platform).second) continue;
    const auto number = [](const std::optional<double>& v) {
      return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
    };
    fits.push_back({{"platform", s.platform}, {"train_median_relative_error", number(s.fit->train)},
                    {"cross_validated_median_relative_error", number(s.fit->cross_validated)},
                    {"cross_validation", s.fit->validation}});
  }
  return {{"scenarios", std::move(scenarios)}, {"papers", std::move(papers)}, {"overall", std::move(total)},
          {"fitted_platforms", std::move(fits)}};
}

}  // namespace redist
