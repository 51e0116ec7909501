#include "redist/calibration/validation_report.hpp"

#include <sstream>

#include <fmt/format.h>

#include "redist/analysis/redistribution_json.hpp"

namespace redist::calibration {

std::string compared_case_row(const ComparedCase& c) {
  const double real = c.measured.total, model = c.simulated.total;
  return fmt::format("| {} | {} | {:.4e} | {:.4e} | {:.2f} |\n", c.what.label(), c.what.ranks(), real, model, model / real);
}

nlohmann::ordered_json compared_case_json(const ComparedCase& c) {
  const double real = c.measured.total, model = c.simulated.total;
  return {{"case", c.what.label()}, {"ranks", c.what.ranks()}, {"measured", real}, {"simulated", model},
          {"ratio", model / real}, {"measured_phases", phases_json(c.measured, redistribution_phases())},
          {"simulated_phases", phases_json(c.simulated, redistribution_phases())},
          {"round_totals", c.round_totals}};
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

}  // namespace redist::calibration
