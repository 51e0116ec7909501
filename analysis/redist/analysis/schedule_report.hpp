// Views of a communication schedule: the paper's step and cost tables (paper 004, tables 2/3,
// 5/6, 8/9, 11/12, 15-19) and the JSON of docs/ARCHITECTURE.md §7.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "redist/schedule/schedule.hpp"

namespace redist {

/// The paper's step names: a, b, ..., z, then aa, ab, ... (bijective base 26).
std::string step_label(Index step);

/// `title`, then the step table (entry (p, q): the step in which p sends to q, '-' for none) and
/// the cost table (cost of each step and the total TC).
std::string schedule_table(const Schedule& schedule, const std::string& title);

/// {"NS":..,"TC":..,"steps":[{"cost":..,"messages":[{"src":..,"dst":..,"length":..},..]},..]},
/// keys in that order; lengths per slice, as in the grid.
nlohmann::ordered_json schedule_json(const Schedule& schedule);

}  // namespace redist
