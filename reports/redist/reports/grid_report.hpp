// Views of a communication grid: the paper's table (paper 004, tables 1, 4, 7, 10, 13, 14) and the
// JSON of docs/ARCHITECTURE.md §7.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "redist/comm_grid/comm_grid.hpp"

namespace redist {

/// The grid as the paper prints it: '-' for no message, message counts per row and per column,
/// followed by the pattern facts (Lemma 2 and Proposition 5).
std::string grid_table(const CommGrid& grid);

/// {"P":..,"Q":..,"r":..,"s":..,"L":..,"grid":[[..],..]}, keys in that order.
nlohmann::ordered_json grid_json(const CommGrid& grid);

/// The peak bytes of building the grid of `redist` and its table (or, with `json`, its JSON and the
/// JSON's text): an upper estimate per cell, refused by the caller before anything is allocated
/// (redist/core/memory_budget.hpp). Nothing when it overflows 64 bits.
std::optional<std::uint64_t> grid_report_peak_bytes(const Redistribution& redist, bool json);

}  // namespace redist
