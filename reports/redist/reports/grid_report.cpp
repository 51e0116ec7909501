#include "redist/reports/grid_report.hpp"

#include <fmt/format.h>

#include "redist/comm_grid/classes.hpp"
#include "redist/core/int_math.hpp"
#include "redist/core/memory_budget.hpp"

namespace redist {

std::string grid_table(const CommGrid& grid) {
  const auto& redist = grid.redistribution();
  std::string out = fmt::format("Communication grid for P = {}, Q = {}, r = {}, s = {}, L = {}\n\n", redist.P,
                                redist.Q, redist.r, redist.s, grid.slice_length());
  // Width of the widest entry, so that columns line up for any L.
  std::size_t width = 2;
  for (Index v : grid.lengths()) width = std::max(width, std::to_string(v).size() + 1);
  width = std::max(width, std::to_string(std::max(grid.P(), grid.Q())).size() + 1);

  out += fmt::format("{:<13}", "Sender/Recv.");
  for (Index q = 0; q < grid.Q(); ++q) out += fmt::format("{:>{}}", q, width);
  out += "  Nbr of msg.\n";
  for (Index p = 0; p < grid.P(); ++p) {
    out += fmt::format("{:<13}", p);
    for (Index q = 0; q < grid.Q(); ++q) {
      const Index v = grid.length(p, q);
      out += v == 0 ? fmt::format("{:>{}}", "-", width) : fmt::format("{:>{}}", v, width);
    }
    out += fmt::format("  {}\n", grid.messages_sent(p));
  }
  out += fmt::format("{:<13}", "Nbr of msg.");
  for (Index q = 0; q < grid.Q(); ++q) out += fmt::format("{:>{}}", grid.messages_received(q), width);
  out += "\n\n";

  const auto counts = max_message_counts(redist);
  out += fmt::format("all-to-all (Lemma 2): {}\n", is_all_to_all(redist) ? "yes" : "no");
  out += fmt::format("max messages per sender m_R = {}, per receiver m_C = {} (Proposition 5)\n",
                     counts.max_per_row, counts.max_per_column);
  return out;
}

nlohmann::ordered_json grid_json(const CommGrid& grid) {
  const auto& redist = grid.redistribution();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (Index p = 0; p < grid.P(); ++p) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (Index q = 0; q < grid.Q(); ++q) row.push_back(grid.length(p, q));
    rows.push_back(std::move(row));
  }
  return {{"P", redist.P}, {"Q", redist.Q}, {"r", redist.r}, {"s", redist.s}, {"L", grid.slice_length()},
          {"grid", std::move(rows)}};
}

std::optional<std::uint64_t> grid_report_peak_bytes(const Redistribution& redist, bool json) {
  // A cell's text: L's digits and a separator; strings and arrays grow by doubling, so twice that.
  // slice_length() first: it refuses bad parameters and an overflowing L.
  const auto text = static_cast<std::uint64_t>(std::to_string(redist.slice_length()).size() + 3);
  const auto cells = checked_mul(redist.P, redist.Q, "P*Q");
  // The grid's 8 bytes a cell, and a JSON value of 16 bytes (twice, as a row grows) or the table.
  const std::uint64_t per_cell = 8 + (json ? 2 * 16 : 0) + 2 * text;
  return bytes_product(static_cast<std::uint64_t>(cells), per_cell);
}

}  // namespace redist
