// Phases across a process boundary (a simulated rank's result leaving the forked simulation, a replay
// worker's line): every field, exactly (JSON numbers keep a double's 17 significant digits). Found by
// nlohmann::json through argument-dependent lookup: `json = phases`, `json.get<Phases>()`.
#pragma once

#include <nlohmann/json.hpp>

#include "redist/transport/phases.hpp"

namespace redist {

/// An array of the fields in kPhaseFields order.
void to_json(nlohmann::json& json, const Phases& phases);
/// Throws unless `json` is such an array.
void from_json(const nlohmann::json& json, Phases& phases);

}  // namespace redist
