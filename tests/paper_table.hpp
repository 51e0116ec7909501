// Reads a table copied from a paper's text (tests/data/...): '#' comment lines, a header row, one
// row per sender whose last column is the "Nbr of msg." count, and a final "Nbr of msg." row.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/core/int_math.hpp"

namespace redist::test {

struct PublishedGrid {
  std::vector<std::vector<Index>> entries;  ///< [sender][receiver], 0 for '-'
  std::vector<Index> row_counts;            ///< published "Nbr of msg." per sender
  std::vector<Index> column_counts;         ///< published "Nbr of msg." per receiver
};

inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, '\t')) {
    if (!cell.empty()) cells.push_back(cell);
  }
  return cells;
}

inline Index cell_value(const std::string& cell) { return cell == "-" ? 0 : std::stoll(cell); }

inline PublishedGrid read_published_grid(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  PublishedGrid grid;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("Sender/Recv.", 0) == 0) continue;
    const auto cells = split_tabs(line);
    if (line.rfind("Nbr of msg.", 0) == 0) {
      for (std::size_t k = 1; k < cells.size(); ++k) grid.column_counts.push_back(cell_value(cells[k]));
      continue;
    }
    std::vector<Index> row;
    for (std::size_t k = 1; k + 1 < cells.size(); ++k) row.push_back(cell_value(cells[k]));
    grid.entries.push_back(row);
    grid.row_counts.push_back(cell_value(cells.back()));
  }
  return grid;
}

}  // namespace redist::test
