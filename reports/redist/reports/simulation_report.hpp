// Per-rank redistribution reports, and their summary over all ranks as the papers time them: each
// phase is the maximum over ranks (MPI_Wtime on every processor, the maximum taken).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "redist/redistribute/verified_run.hpp"

namespace redist {

/// One rank's report as a JSON text (what a simulated rank sends back out of the simulation's process).
std::string rank_report_to_json(const VerifiedReport& report);

struct RunSummary {
  Phases phases;                  ///< maximum over ranks, phase by phase (with_derived for each rank)
  Index messages = 0;             ///< messages between distinct ranks, all ranks together
  Index bytes = 0;                ///< bytes of those messages
  Index bytes_kept = 0;           ///< bytes that stayed on their rank, all ranks together
  std::optional<bool> verified;   ///< all ranks verified; empty on phantom runs
  Index misplaced = 0;
};

/// Parses the ranks' JSON reports and summarises them.
RunSummary summarize_ranks(const std::vector<std::string>& rank_reports);

}  // namespace redist
