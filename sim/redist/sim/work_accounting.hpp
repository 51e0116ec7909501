// The `work` run parameter: whose program a run models. `redist` (the default) runs and prices
// redist's own implementation; `paper` follows what the paper's program did where the paper
// describes it (its timing procedure, its per-element owner computations), keeping redist's
// algorithms unchanged and changing only what the replay does and counts.
#pragma once

#include <nlohmann/json.hpp>

#include "redist/analysis/scenario.hpp"

namespace redist::sim {

inline constexpr const char* kWorkParameter = "work";

/// Throws std::invalid_argument unless `value` is "paper" or "redist".
void check_work(const nlohmann::json& value);

/// Whether the run models the paper's program (`work: paper`).
bool paper_work(const Params& params);

}  // namespace redist::sim
