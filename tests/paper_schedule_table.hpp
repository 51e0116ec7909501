// Reads the schedules copied from paper 004 (tests/data/paper004/): step tables, whose cell (p, q)
// is the letter of the step in which p sends to q ('-' for no message), and cost tables, a "Step"
// row of letters and a "Cost" row ending with the total.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "paper_table.hpp"
#include "redist/schedule/length_matrix.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist::test {

/// Rows of cells after the header, '#' comments skipped; the first cell of each row is its label.
inline std::vector<std::vector<std::string>> read_rows(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    rows.push_back(split_tabs(line));
  }
  return rows;
}

/// Step a is 0, b is 1, ...
inline Index step_of_letter(const std::string& letter) {
  if (letter.size() != 1 || letter[0] < 'a' || letter[0] > 'z') throw std::runtime_error("bad step '" + letter + "'");
  return letter[0] - 'a';
}

/// The published step table as a schedule, message lengths taken from `lengths`.
inline Schedule read_published_schedule(const std::string& path, const LengthMatrix& lengths) {
  const auto rows = read_rows(path);
  Schedule schedule{lengths.P(), lengths.Q(), {}};
  for (std::size_t k = 1; k < rows.size(); ++k) {  // rows[0] is the "Sender/Recv." header
    const Index p = std::stoll(rows[k][0]);
    for (std::size_t c = 1; c < rows[k].size(); ++c) {
      if (rows[k][c] == "-") continue;
      const auto step = static_cast<std::size_t>(step_of_letter(rows[k][c]));
      if (schedule.steps.size() <= step) schedule.steps.resize(step + 1);
      const Index q = static_cast<Index>(c) - 1;
      schedule.steps[step].messages.push_back({p, q, lengths.at(p, q)});
    }
  }
  return schedule;
}

struct PublishedCosts {
  std::vector<Index> costs;  ///< per step, a, b, c, ...
  Index total = 0;
};

inline PublishedCosts read_published_costs(const std::string& path) {
  const auto rows = read_rows(path);
  if (rows.size() != 2 || rows[1].empty() || rows[1][0] != "Cost") throw std::runtime_error("bad cost table " + path);
  PublishedCosts costs;
  for (std::size_t c = 1; c + 1 < rows[1].size(); ++c) costs.costs.push_back(std::stoll(rows[1][c]));
  costs.total = std::stoll(rows[1].back());
  return costs;
}

}  // namespace redist::test
