#include "redist/reports/replay_report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include <fmt/format.h>

namespace redist {
namespace {

bool published_row_matches(const Params& row, const Params& run) {
  for (const auto& [key, value] : row.items()) {
    if (!run.contains(key) || run[key] != value) return false;
  }
  return true;
}

std::string value_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The parameters that vary between runs: the swept ones, in sweep order.
std::vector<std::string> varying(const Scenario& s) {
  std::vector<std::string> names;
  for (const auto& axis : s.sweep) names.push_back(axis.name);
  return names;
}

// The platform file's name: reports must not depend on where the checkout lives.
std::string platform_name(const Scenario& s) { return std::filesystem::path(s.platform).filename().string(); }

std::string short_number(double v) { return fmt::format("{:.4g}", v); }

const Record* find_record(const std::vector<Record>& records, const Params& run, const std::string& method,
                          const std::string& phase) {
  const auto it = std::find_if(records.begin(), records.end(), [&](const Record& r) {
    return r.method == method && r.phase == phase && r.params == run;
  });
  return it == records.end() ? nullptr : &*it;
}

// numerator / denominator of one row, if both ran.
std::optional<double> ratio_of(const std::vector<Record>& records, const Params& run, const RatioSpec& ratio) {
  const Record* top = find_record(records, run, ratio.numerator, ratio.phase);
  const Record* bottom = find_record(records, run, ratio.denominator, ratio.phase);
  if (top == nullptr || bottom == nullptr || bottom->simulated == 0) return std::nullopt;
  return top->simulated / bottom->simulated;
}

std::string ratio_label(const RatioSpec& r) { return r.numerator + "/" + r.denominator + " " + r.phase; }

// Whether the simulated values order every pair of methods that the published values order: a pair
// the paper prints as equal (a tie at its precision) is not ordered by it, so either order agrees.
bool orders_agree(const std::vector<const Record*>& cells) {
  for (const Record* a : cells) {
    for (const Record* b : cells) {
      if (*a->published < *b->published && !(a->simulated < b->simulated)) return false;
    }
  }
  return true;
}

// Whether the published values order at least one pair of the row's methods.
bool published_orders(const std::vector<const Record*>& cells) {
  for (const Record* a : cells) {
    if (*a->published != *cells.front()->published) return true;
  }
  return false;
}

}  // namespace

void attach_published(const Scenario& scenario, std::vector<Record>& records) {
  for (auto& record : records) {
    for (const auto& p : scenario.published) {
      if (p.method == record.method && p.phase == record.phase && published_row_matches(p.params, record.params)) {
        record.published = p.value;
      }
    }
  }
}

ComparisonMetrics compare(const std::vector<Record>& records) {
  ComparisonMetrics metrics;
  std::vector<double> errors;
  // (params, phase) -> [(simulated, published, method)]
  std::map<std::string, std::vector<const Record*>> rows;
  for (const auto& r : records) {
    if (!r.published) continue;
    if (*r.published > 0) errors.push_back(std::abs(r.simulated - *r.published) / *r.published);
    rows[r.params.dump() + "|" + r.phase].push_back(&r);
  }
  int agree = 0;
  for (const auto& [key, cells] : rows) {
    if (!published_orders(cells)) continue;
    ++metrics.ordering_rows;
    agree += orders_agree(cells);
  }
  if (metrics.ordering_rows > 0) metrics.ordering_agreement = static_cast<double>(agree) / metrics.ordering_rows;
  metrics.published_cells = static_cast<int>(errors.size());
  if (!errors.empty()) {
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    metrics.median_relative_error = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
  }
  return metrics;
}

std::string markdown_report(const Scenario& s, const std::vector<Record>& records, const ComparisonMetrics& metrics) {
  std::string out = fmt::format("## {}{}\n\n", s.name, s.table.empty() ? "" : " — " + s.table);
  if (!s.paper.empty()) out += fmt::format("Paper: `{}`. ", s.paper);
  out += fmt::format("Platform: `{}`. Fixed: `{}`. Values in {}", platform_name(s), s.fixed.dump(), s.unit);
  out += s.published.empty() ? ".\n\n" : ", simulated (published).\n\n";

  const auto params = varying(s);
  std::vector<std::pair<std::string, std::string>> columns;  // (method, phase)
  for (const auto& m : s.methods) {
    for (const auto& phase : s.phases) columns.emplace_back(m.name, phase);
  }
  out += "|";
  for (const auto& p : params) out += " " + p + " |";
  for (const auto& [m, phase] : columns) out += " " + m + " " + phase + " |";
  for (const auto& ratio : s.ratios) out += " " + ratio_label(ratio) + " |";
  out += "\n|";
  for (std::size_t k = 0; k < params.size() + columns.size() + s.ratios.size(); ++k) out += k < params.size() ? "---|" : "---:|";
  out += "\n";
  for (const auto& run : s.parameter_sets()) {
    out += "|";
    for (const auto& p : params) out += " " + value_text(run[p]) + " |";
    for (const auto& [m, phase] : columns) {
      const Record* r = find_record(records, run, m, phase);
      std::string cell = r == nullptr ? "" : short_number(r->simulated);
      if (r != nullptr && r->published) cell += " (" + short_number(*r->published) + ")";
      out += " " + cell + " |";
    }
    for (const auto& ratio : s.ratios) {
      const auto value = ratio_of(records, run, ratio);
      out += " " + (value ? fmt::format("{:.3f}", *value) : std::string()) + " |";
    }
    out += "\n";
  }
  for (const auto& ratio : s.ratios) {
    out += fmt::format("\nRatio {}: published: {}.", ratio_label(ratio), ratio.published.empty() ? "-" : ratio.published);
  }
  if (!s.ratios.empty()) out += "\n";
  if (!metrics.claims.empty()) out += "\nClaims of the paper, checked on the simulated values:\n";
  for (const auto& c : metrics.claims) {
    out += fmt::format("- {} {}: {}.\n", c.holds ? "[holds]" : "[FAILS]", c.claim, c.detail);
  }
  if (metrics.published_cells > 0) {
    out += fmt::format("\nMedian relative error over {} published cells: {:.1f}%.", metrics.published_cells,
                       100 * *metrics.median_relative_error);
    if (metrics.ordering_agreement) {
      out += fmt::format(" Method-ordering agreement: {:.0f}% of {} rows.", 100 * *metrics.ordering_agreement,
                         metrics.ordering_rows);
    }
    out += "\n";
  }
  return out;
}

std::string csv_report(const Scenario& s, const std::vector<Record>& records) {
  std::vector<std::string> params;
  const Params first = s.parameter_sets().front();  // named: a temporary would die before the loop
  for (const auto& [key, value] : first.items()) params.push_back(key);
  std::string out;
  for (const auto& p : params) out += p + ",";
  out += "method,phase,simulated,published,unit\n";
  for (const auto& r : records) {
    for (const auto& p : params) out += value_text(r.params[p]) + ",";
    out += fmt::format("{},{},{:.9g},{},{}\n", r.method, r.phase, r.simulated,
                       r.published ? fmt::format("{:.9g}", *r.published) : "", s.unit);
  }
  return out;
}

nlohmann::ordered_json json_report(const Scenario& s, const std::vector<Record>& records,
                                   const ComparisonMetrics& metrics) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& r : records) {
    list.push_back({{"scenario", s.name}, {"paper", s.paper}, {"table", s.table}, {"params", r.params},
                    {"method", r.method}, {"phase", r.phase}, {"simulated", r.simulated},
                    {"published", r.published ? nlohmann::ordered_json(*r.published) : nlohmann::ordered_json(nullptr)},
                    {"unit", s.unit}});
    if (!r.quantities.empty()) list.back()["quantities"] = r.quantities;
  }
  const auto optional = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json claims = nlohmann::ordered_json::array();
  for (const auto& c : metrics.claims) claims.push_back({{"claim", c.claim}, {"holds", c.holds}, {"detail", c.detail}});
  nlohmann::ordered_json ratios = nlohmann::ordered_json::array();
  for (const auto& ratio : s.ratios) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& run : s.parameter_sets()) {
      rows.push_back({{"params", run}, {"simulated", optional(ratio_of(records, run, ratio))}});
    }
    ratios.push_back({{"numerator", ratio.numerator}, {"denominator", ratio.denominator}, {"phase", ratio.phase},
                      {"published", ratio.published}, {"rows", std::move(rows)}});
  }
  nlohmann::ordered_json report = {{"scenario", s.name}, {"paper", s.paper}, {"table", s.table}};
  if (!s.role.empty()) report["role"] = s.role;  // replays only: sweeps have none
  report["platform"] = platform_name(s);
  report["metrics"] = {{"ordering_agreement", optional(metrics.ordering_agreement)},
                       {"ordering_rows", metrics.ordering_rows},
                       {"median_relative_error", optional(metrics.median_relative_error)},
                       {"published_cells", metrics.published_cells},
                       {"claims", std::move(claims)}};
  report["ratios"] = std::move(ratios);
  report["records"] = std::move(list);
  return report;
}

}  // namespace redist
