// Views of a communication schedule: the paper's step and cost tables (paper 004, tables 2/3,
// 5/6, 8/9, 11/12, 15-19), the JSON of docs/ARCHITECTURE.md §7, and a drawing by
// reports/plot_schedule.py.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "redist/schedule/schedule.hpp"
#include "redist/schedule/strategy.hpp"

namespace redist {

/// The paper's step names: a, b, ..., z, then aa, ab, ... (bijective base 26).
std::string step_label(Index step);

/// `title`, then the step table (entry (p, q): the step in which p sends to q, '-' for none) and
/// the cost table (cost of each step and the total TC).
std::string schedule_table(const Schedule& schedule, const std::string& title);

/// {"NS":..,"TC":..,"steps":[{"cost":..,"messages":[{"src":..,"dst":..,"length":..},..]},..]},
/// keys in that order; lengths per slice, as in the grid.
nlohmann::ordered_json schedule_json(const Schedule& schedule);

/// "Caterpillar schedule for P = 15, Q = 6, r = 2, s = 3: NS = .. steps, TC = ..".
std::string schedule_title(Strategy strategy, const Redistribution& redist, const Schedule& schedule);

/// Draws the schedule into `png` with `script` (reports/plot_schedule.py), the schedule handed over
/// as a JSON file in the temporary directory (removed afterwards, and on a stop signal); the PNG is
/// published whole or not at all. Throws std::runtime_error as run_plot_script does.
void plot_schedule(const Schedule& schedule, const std::string& title, const std::filesystem::path& png,
                   const std::filesystem::path& script);

}  // namespace redist
