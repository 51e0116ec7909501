// Per-rank redistribution reports, and their summary over all ranks as the papers time them: each
// phase is the maximum over ranks (MPI_Wtime on every processor, the maximum taken).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/redistribute/verified_run.hpp"

namespace redist {

/// One rank's report as a JSON text (what a simulated rank sends back to the engine).
std::string rank_report_to_json(const VerifiedReport& report);

struct RunSummary {
  PhaseTimes phases;              ///< maximum over ranks, phase by phase
  Index messages = 0;             ///< messages between distinct ranks, all ranks together
  Index bytes = 0;                ///< bytes of those messages
  std::optional<bool> verified;   ///< all ranks verified; empty on phantom runs
  Index misplaced = 0;
};

/// Parses the ranks' JSON reports and summarises them.
RunSummary summarize_ranks(const std::vector<std::string>& rank_reports);

/// {"index":..,"pack":..,"comm":..,"unpack":..,"total":..}
nlohmann::ordered_json phases_json(const PhaseTimes& phases);

}  // namespace redist
