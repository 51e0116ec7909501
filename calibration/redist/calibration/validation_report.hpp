// What `redist validate` prints: a Markdown row per case (measured and simulated total, their ratio)
// or its JSON object with both runs' phases, then the error figures over the cases and where the
// misses lie (by phase, by rank count).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/calibration/validation_case.hpp"
#include "redist/calibration/validation_summary.hpp"
#include "redist/transport/phases.hpp"

namespace redist::calibration {

/// One case measured under mpirun (its fastest pass) and simulated.
struct ComparedCase {
  ValidationCase what;
  Phases measured, simulated;
  std::vector<double> round_totals;  ///< the measured total of each pass
};

inline constexpr const char* kValidationTableHeader =
    "| case | ranks | measured s | simulated s | simulated/measured |\n|---|---|---|---|---|\n";

/// "| LABEL | RANKS | MEASURED | SIMULATED | RATIO |\n".
std::string compared_case_row(const ComparedCase& c);

/// {"case":..,"set":"1-D"|"2-D"|"pdgemr2d","ranks":..,"measured":..,"simulated":..,"ratio":..,"measured_phases":{..},
/// "simulated_phases":{..},"round_totals":[..]}.
nlohmann::ordered_json compared_case_json(const ComparedCase& c);

/// The median and 90th percentile of the relative error, the measurement noise (with `spread`),
/// how often the simulator is optimistic, and the worst cases.
std::string validation_summary_text(const std::vector<ValidationCase>& all, const std::vector<double>& measured,
                                    const std::vector<double>& simulated, const ValidationSummary& summary,
                                    const std::optional<RoundSpread>& spread);

/// The figures of one set of cases: its error and each phase's miss.
struct SetMiss {
  std::string set;  ///< 1-D, 2-D, pdgemr2d, within cores, beyond cores
  int cases = 0;
  ValidationSummary summary;     ///< over the set (empty set: zeros)
  std::vector<PhaseMiss> phases;
};

/// Where the misses lie: each phase's (pdgemr2d's runs, timed whole, left out), the totals' by rank
/// count, and each set's: the 1-D, the 2-D and the pdgemr2d cases (ValidationCase::family), and the cases whose ranks fit the machine's `cores` (what a
/// cluster job runs: one rank per core) and those beyond them (ranks taking turns on cores).
struct ValidationMisses {
  std::vector<PhaseMiss> phases;
  std::vector<RankCountMiss> ranks;
  std::vector<SetMiss> sets;
};

ValidationMisses validation_misses(const std::vector<ComparedCase>& cases, Index cores);
/// {"by_phase":{"index":{"cases","median_ratio","median_share_of_total"},...},"by_ranks":[{"ranks","cases",
/// "median_relative_error","p90_relative_error","geometric_mean_ratio"},...],"by_set":{"1-D":{"cases",
/// "median_relative_error","p90_relative_error","optimistic_cases","by_phase":{...}},...}}.
nlohmann::ordered_json validation_misses_json(const ValidationMisses& misses);
/// The same as lines of text.
std::string validation_misses_text(const ValidationMisses& misses);

}  // namespace redist::calibration
