#include "redist/analysis/table_report.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace redist {
namespace {

std::string entry(const TableClass& c) { return fmt::format("({}, {})", c.size, c.first); }

}  // namespace

std::string info_table_text(const TableView& view) {
  const InfoTable& table = view.table;
  std::size_t columns = 0, width = 8;  // width of "(CS, FI)"
  for (const auto& message : table.messages) {
    columns = std::max(columns, message.classes.size());
    for (const auto& c : message.classes) width = std::max(width, entry(c).size());
  }
  std::string out = fmt::format("{:<10}{:<10}", fmt::format("{}{}", view.send ? "PIT_" : "UPIT_", view.rank), "Message");
  for (std::size_t k = 0; k < columns; ++k) out += fmt::format("  {:<{}}", "(CS, FI)", width);
  while (out.back() == ' ') out.pop_back();
  out += '\n';
  for (const auto& message : table.messages) {
    out += fmt::format("{:<10}{:<10}", "", fmt::format("msg{}", message.peer));
    for (const auto& c : message.classes) out += fmt::format("  {:<{}}", entry(c), width);
    while (out.back() == ' ') out.pop_back();
    out += '\n';
  }
  return out;
}

nlohmann::ordered_json info_table_json(const TableView& view) {
  nlohmann::ordered_json messages = nlohmann::ordered_json::array();
  for (const auto& message : view.table.messages) {
    nlohmann::ordered_json classes = nlohmann::ordered_json::array();
    for (const auto& c : message.classes) classes.push_back({{"size", c.size}, {"first", c.first}});
    messages.push_back({{"peer", message.peer}, {"classes", std::move(classes)}});
  }
  return {{"rank", view.rank}, {"side", view.send ? "send" : "recv"}, {"messages", std::move(messages)}};
}

}  // namespace redist
