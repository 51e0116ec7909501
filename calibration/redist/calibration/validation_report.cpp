#include "redist/calibration/validation_report.hpp"

#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "redist/reports/redistribution_json.hpp"

namespace redist::calibration {

std::string compared_case_row(const ComparedCase& c) {
  const double real = c.measured.total, model = c.simulated.total;
  return fmt::format("| {} | {} | {:.4e} | {:.4e} | {:.2f} |\n", c.what.label(), c.what.ranks(), real, model, model / real);
}

nlohmann::ordered_json compared_case_json(const ComparedCase& c) {
  const double real = c.measured.total, model = c.simulated.total;
  nlohmann::ordered_json json = {{"case", c.what.label()}, {"set", c.what.family()}, {"ranks", c.what.ranks()}};
  // A 2-D case's copy as `redist simulate --json` and `redist-mpi run --json` write it: the
  // descriptors and, for a submatrix copy, B's size, sub(A)'s and sub(B)'s "at" and "sub".
  if (c.what.matrix) json["matrix"] = matrix_copy_json(*c.what.matrix);
  json["measured"] = real;
  json["simulated"] = model;
  json["ratio"] = model / real;
  json["measured_phases"] = phases_json(c.measured, redistribution_phases());
  json["simulated_phases"] = phases_json(c.simulated, redistribution_phases());
  json["round_totals"] = c.round_totals;
  return json;
}

std::string validation_summary_text(const std::vector<ValidationCase>& all, const std::vector<double>& measured,
                                    const std::vector<double>& simulated, const ValidationSummary& summary,
                                    const std::optional<RoundSpread>& spread) {
  std::ostringstream out;
  out << fmt::format("|simulated - measured| / measured over {} cases: median {:.1f}%, 90th percentile {:.1f}%\n",
                     all.size(), 100 * summary.median, 100 * summary.p90);
  if (spread) {
    out << fmt::format("measurement noise (a case's slowest pass over its fastest, minus 1): median {:.1f}%, "
                       "90th percentile {:.1f}%\n",
                       100 * spread->median, 100 * spread->p90);
  }
  out << fmt::format("simulator optimistic (simulated < measured) in {} of {} cases\nworst cases:\n",
                     summary.optimistic, all.size());
  for (const std::size_t i : summary.worst) {
    out << fmt::format("  {} (ranks {}): simulated/measured {:.2f}\n", all[i].label(), all[i].ranks(),
                       simulated[i] / measured[i]);
  }
  return out.str();
}

namespace {

// pdgemr2d's runs are timed whole: their phases are no figures to compare.
bool timed_phases(const ComparedCase& c) { return !c.what.pdgemr2d; }

SetMiss set_miss(const std::string& name, const std::vector<ComparedCase>& cases,
                 const std::function<bool(const ComparedCase&)>& in_set) {
  std::vector<Phases> measured, simulated;
  std::vector<double> measured_totals, simulated_totals;
  for (const ComparedCase& c : cases) {
    if (!in_set(c)) continue;
    if (timed_phases(c)) {
      measured.push_back(c.measured);
      simulated.push_back(c.simulated);
    }
    measured_totals.push_back(c.measured.total);
    simulated_totals.push_back(c.simulated.total);
  }
  SetMiss out{name, static_cast<int>(measured_totals.size()), {}, {}};
  if (measured_totals.empty()) return out;
  out.summary = summarise_validation(measured_totals, simulated_totals);
  if (!measured.empty()) out.phases = phase_misses(measured, simulated);
  return out;
}

nlohmann::ordered_json phase_misses_json(const std::vector<PhaseMiss>& misses) {
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (const PhaseMiss& p : misses) {
    phases[p.phase] = {{"cases", p.cases}, {"median_ratio", p.median_ratio}, {"median_share_of_total", p.median_share}};
  }
  return phases;
}

}  // namespace

ValidationMisses validation_misses(const std::vector<ComparedCase>& cases, Index cores) {
  std::vector<Phases> measured, simulated;
  std::vector<Index> ranks;
  std::vector<double> measured_totals, simulated_totals;
  for (const ComparedCase& c : cases) {
    if (timed_phases(c)) {
      measured.push_back(c.measured);
      simulated.push_back(c.simulated);
    }
    ranks.push_back(c.what.ranks());
    measured_totals.push_back(c.measured.total);
    simulated_totals.push_back(c.simulated.total);
  }
  std::vector<SetMiss> sets = {
      set_miss("1-D", cases, [](const ComparedCase& c) { return c.what.family() == "1-D"; }),
      set_miss("2-D", cases, [](const ComparedCase& c) { return c.what.family() == "2-D"; }),
      set_miss("pdgemr2d", cases, [](const ComparedCase& c) { return c.what.family() == "pdgemr2d"; }),
      set_miss("within cores", cases, [cores](const ComparedCase& c) { return c.what.ranks() <= cores; }),
      set_miss("beyond cores", cases, [cores](const ComparedCase& c) { return c.what.ranks() > cores; })};
  return {phase_misses(measured, simulated), rank_count_misses(ranks, measured_totals, simulated_totals),
          std::move(sets)};
}

nlohmann::ordered_json validation_misses_json(const ValidationMisses& misses) {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const RankCountMiss& r : misses.ranks) {
    ranks.push_back({{"ranks", r.ranks},
                     {"cases", r.cases},
                     {"median_relative_error", r.median},
                     {"p90_relative_error", r.p90},
                     {"geometric_mean_ratio", r.geometric_mean_ratio}});
  }
  nlohmann::ordered_json sets = nlohmann::ordered_json::object();
  for (const SetMiss& s : misses.sets) {
    sets[s.set] = {{"cases", s.cases},
                   {"median_relative_error", s.summary.median},
                   {"p90_relative_error", s.summary.p90},
                   {"optimistic_cases", s.summary.optimistic},
                   {"by_phase", phase_misses_json(s.phases)}};
  }
  return {{"by_phase", phase_misses_json(misses.phases)}, {"by_ranks", ranks}, {"by_set", sets}};
}

std::string validation_misses_text(const ValidationMisses& misses) {
  std::ostringstream out;
  out << "by phase (simulated/measured at the median over the cases that measured it; |simulated - measured|\n"
         "of the phase over the measured total, at the median):\n";
  for (const PhaseMiss& p : misses.phases) {
    out << fmt::format("  {:<7} ratio {:.2f}   share of the total's error {:.1f}%   ({} cases)\n", p.phase,
                       p.median_ratio, 100 * p.median_share, p.cases);
  }
  out << "by set (|simulated - measured| / measured; phases simulated/measured at the median):\n";
  for (const SetMiss& s : misses.sets) {
    out << fmt::format("  {:<12} {:>3} cases: median {:.1f}%, 90th percentile {:.1f}%", s.set, s.cases,
                       100 * s.summary.median, 100 * s.summary.p90);
    for (const PhaseMiss& p : s.phases) out << fmt::format("  {} {:.2f}", p.phase, p.median_ratio);
    out << "\n";
  }
  out << "by rank count (|simulated - measured| / measured; geometric mean of simulated/measured):\n";
  for (const RankCountMiss& r : misses.ranks) {
    out << fmt::format("  {:>3} ranks: median {:.1f}%, 90th percentile {:.1f}%, mean ratio {:.2f}   ({} cases)\n",
                       r.ranks, 100 * r.median, 100 * r.p90, r.geometric_mean_ratio, r.cases);
  }
  return out.str();
}

}  // namespace redist::calibration
