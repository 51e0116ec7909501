#include "redist/reports/claims.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

namespace redist {
namespace {

const Record* find(const std::vector<Record>& records, const Params& run, const std::string& method,
                   const std::string& phase) {
  const auto it = std::find_if(records.begin(), records.end(), [&](const Record& r) {
    return r.method == method && r.phase == phase && r.params == run;
  });
  return it == records.end() ? nullptr : &*it;
}

// The claim's series at one run: a method's value, or the ratio of two methods' values.
std::optional<double> series(const ClaimSpec& c, const std::vector<Record>& records, const Params& run) {
  if (!c.ratio) {
    const Record* r = find(records, run, c.method, c.phase);
    return r ? std::optional(r->simulated) : std::nullopt;
  }
  const Record* top = find(records, run, c.ratio->numerator, c.phase);
  const Record* bottom = find(records, run, c.ratio->denominator, c.phase);
  if (top == nullptr || bottom == nullptr || bottom->simulated == 0) return std::nullopt;
  return top->simulated / bottom->simulated;
}

std::string series_name(const ClaimSpec& c) {
  return (c.ratio ? c.ratio->numerator + "/" + c.ratio->denominator : c.method) + " " + c.phase;
}

std::string number(double v) { return fmt::format("{:.4g}", v); }

// Every run of the scenario with its series value (runs that did not report are skipped).
std::vector<std::pair<Params, double>> points(const Scenario& s, const ClaimSpec& c, const std::vector<Record>& records) {
  std::vector<std::pair<Params, double>> out;
  for (const auto& run : s.parameter_sets()) {
    if (const auto v = series(c, records, run)) out.emplace_back(run, *v);
  }
  return out;
}

ClaimResult compare_methods(const Scenario& s, const ClaimSpec& c, const std::vector<Record>& records) {
  const bool below = c.kind == ClaimSpec::Kind::Below;
  const std::string& other_phase = c.than_phase.empty() ? c.phase : c.than_phase;
  int rows = 0, agree = 0;
  std::string first_miss;
  for (const auto& [run, value] : points(s, c, records)) {
    for (const auto& other : c.than) {
      const Record* r = find(records, run, other, other_phase);
      if (r == nullptr) continue;
      ++rows;
      const bool ok = below ? value < r->simulated : value > r->simulated;
      agree += ok;
      if (!ok && first_miss.empty()) {
        first_miss = fmt::format("; first miss at {}: {} {} against {} {}", run.dump(), c.method, number(value),
                                 other + (other_phase == c.phase ? "" : " " + other_phase), number(r->simulated));
      }
    }
  }
  return {c.text, rows > 0 && agree == rows,
          fmt::format("{} {} the others{} at {} of {} rows{}", series_name(c), below ? "below" : "above",
                      other_phase == c.phase ? "" : "' " + other_phase, agree, rows, first_miss)};
}

// Values grouped by the other parameters, each group in the order of the `along` axis.
std::vector<std::vector<std::pair<Params, double>>> trends(const Scenario& s, const ClaimSpec& c,
                                                           const std::vector<Record>& records) {
  std::map<std::string, std::vector<std::pair<Params, double>>> groups;
  std::vector<std::string> order;
  for (auto& [run, value] : points(s, c, records)) {
    Params others = run;
    others.erase(c.along);
    const auto key = others.dump();
    if (!groups.count(key)) order.push_back(key);
    groups[key].emplace_back(run, value);
  }
  std::vector<std::vector<std::pair<Params, double>>> out;
  for (const auto& key : order) {
    auto group = groups[key];
    std::stable_sort(group.begin(), group.end(), [&](const auto& a, const auto& b) {
      return a.first[c.along] < b.first[c.along];
    });
    out.push_back(std::move(group));
  }
  return out;
}

ClaimResult monotone(const Scenario& s, const ClaimSpec& c, const std::vector<Record>& records) {
  const bool falling = c.kind == ClaimSpec::Kind::Decreasing;
  int steps = 0, agree = 0;
  std::string first_miss;
  for (const auto& group : trends(s, c, records)) {
    for (std::size_t k = 1; k < group.size(); ++k) {
      const double before = group[k - 1].second, after = group[k].second;
      const bool ok = falling ? after <= before * (1 + c.tolerance) : after >= before * (1 - c.tolerance);
      ++steps;
      agree += ok;
      if (!ok && first_miss.empty()) {
        first_miss = fmt::format("; first miss from {} to {}: {} -> {}", group[k - 1].first.dump(), group[k].first.dump(),
                                 number(before), number(after));
      }
    }
  }
  return {c.text, steps > 0 && agree == steps,
          fmt::format("{} {} along {} in {} of {} steps{}", series_name(c), falling ? "falls" : "rises", c.along, agree,
                      steps, first_miss)};
}

ClaimResult spread(const Scenario& s, const ClaimSpec& c, const std::vector<Record>& records) {
  // Without `along`, one group of every run; with it, each group of runs equal in the other parameters.
  using Group = std::vector<std::pair<Params, double>>;
  const std::vector<Group> groups = c.along.empty() ? std::vector<Group>{points(s, c, records)} : trends(s, c, records);
  double worst = 0;
  std::string where;
  bool any = false;
  for (const auto& values : groups) {
    if (values.empty()) continue;
    const auto [low, high] = std::minmax_element(values.begin(), values.end(),
                                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    const double ratio = low->second > 0 ? high->second / low->second : INFINITY;
    if (!any || ratio > worst) {
      worst = ratio;
      Params others = values.front().first;
      if (!c.along.empty()) others.erase(c.along);
      where = fmt::format("{} spans {} to {}{}", series_name(c), number(low->second), number(high->second),
                          c.along.empty() ? "" : " along " + c.along + " at " + others.dump());
    }
    any = true;
  }
  if (!any) return {c.text, false, "no values"};
  return {c.text, worst <= c.max_ratio,
          fmt::format("{}: max/min {:.3g} (at most {:.3g} claimed){}", where, worst, c.max_ratio,
                      groups.size() > 1 ? fmt::format(", the widest of {} groups", groups.size()) : "")};
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double mx = 0, my = 0;
  for (std::size_t k = 0; k < x.size(); ++k) mx += x[k] / n, my += y[k] / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    sxy += (x[k] - mx) * (y[k] - my);
    sxx += (x[k] - mx) * (x[k] - mx);
    syy += (y[k] - my) * (y[k] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : NAN;
}

ClaimResult follows(const Scenario& s, const ClaimSpec& c, const std::vector<Record>& records) {
  const std::string& owner = c.ratio ? c.ratio->numerator : c.method;
  std::vector<double> quantity, value;
  for (const auto& [run, v] : points(s, c, records)) {
    const Record* r = find(records, run, owner, c.phase);
    const auto it = r->quantities.find(c.quantity);
    if (it == r->quantities.end()) return {c.text, false, fmt::format("the experiment reports no quantity '{}'", c.quantity)};
    quantity.push_back(it->second);
    value.push_back(v);
  }
  const double r = pearson(quantity, value);
  if (std::isnan(r)) return {c.text, false, fmt::format("{} or {} does not vary over the rows", series_name(c), c.quantity)};
  return {c.text, r >= c.min_correlation,
          fmt::format("correlation of {} with {} over {} rows: {:.3f} (at least {:.3g} claimed)", series_name(c),
                      c.quantity, value.size(), r, c.min_correlation)};
}

std::string bounds(const ClaimSpec& c) {
  if (c.min && c.max) return fmt::format("[{}, {}]", number(*c.min), number(*c.max));
  return c.min ? fmt::format("at least {}", number(*c.min)) : fmt::format("at most {}", number(*c.max));
}

// Every run inside `where` has its series within [min, max].
ClaimResult between(const Scenario& s, const ClaimSpec& c, const std::vector<Record>& records) {
  int rows = 0, inside = 0;
  double low = INFINITY, high = -INFINITY;
  std::string first_miss;
  for (const auto& [run, value] : points(s, c, records)) {
    if (!run_in(c.where, run)) continue;
    ++rows;
    low = std::min(low, value);
    high = std::max(high, value);
    const bool ok = (!c.min || value >= *c.min) && (!c.max || value <= *c.max);
    inside += ok;
    if (!ok && first_miss.empty()) first_miss = fmt::format("; first miss at {}: {}", run.dump(), number(value));
  }
  if (rows == 0) return {c.text, false, fmt::format("{}: no values where {}", series_name(c), c.where.dump())};
  return {c.text, inside == rows,
          fmt::format("{} spans {} to {} over {} rows{} ({} claimed): {} of {} inside{}", series_name(c), number(low),
                      number(high), rows, c.where.empty() ? "" : " where " + c.where.dump(), bounds(c), inside, rows,
                      first_miss)};
}

}  // namespace

std::vector<ClaimResult> check_claims(const Scenario& scenario, const std::vector<Record>& records) {
  std::vector<ClaimResult> out;
  for (const auto& c : scenario.claims) {
    switch (c.kind) {
      case ClaimSpec::Kind::Below:
      case ClaimSpec::Kind::Above: out.push_back(compare_methods(scenario, c, records)); break;
      case ClaimSpec::Kind::Decreasing:
      case ClaimSpec::Kind::Increasing: out.push_back(monotone(scenario, c, records)); break;
      case ClaimSpec::Kind::Spread: out.push_back(spread(scenario, c, records)); break;
      case ClaimSpec::Kind::Follows: out.push_back(follows(scenario, c, records)); break;
      case ClaimSpec::Kind::Between: out.push_back(between(scenario, c, records)); break;
    }
  }
  return out;
}

}  // namespace redist
