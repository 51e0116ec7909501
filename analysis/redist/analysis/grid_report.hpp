// Views of a communication grid: the paper's table (paper 004, tables 1, 4, 7, 10, 13, 14) and the
// JSON of docs/ARCHITECTURE.md §7.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "redist/comm_grid/comm_grid.hpp"

namespace redist {

/// The grid as the paper prints it: '-' for no message, message counts per row and per column,
/// followed by the pattern facts (Lemma 2 and Proposition 5).
std::string grid_table(const CommGrid& grid);

/// {"P":..,"Q":..,"r":..,"s":..,"L":..,"grid":[[..],..]}, keys in that order.
nlohmann::ordered_json grid_json(const CommGrid& grid);

}  // namespace redist
