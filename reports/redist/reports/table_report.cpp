#include "redist/reports/table_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/core/checks.hpp"
#include "redist/indexing/krr_tables.hpp"

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

namespace {

std::string title(const KrrTableRequest& o, const KrrShape& shape, const InfoTable& table) {
  return fmt::format("{} of {}{}: BLOCK-CYCLIC({}) over {} -> BLOCK-CYCLIC({}) over {} ({}, k = {}, r = {}), {} = {}\n\n",
                     o.send ? "Packing information table" : "Unpacking information table",
                     o.send ? "P" : "Q", o.rank, o.r, o.P, o.s, o.Q, shape.kr_to_r ? "kr -> r" : "r -> kr",
                     shape.k, shape.r, o.send ? "LCC_s" : "LCC_d", table.period);
}

}  // namespace

std::string krr_table_report(const KrrTableRequest& o, bool json) {
  require_positive(o.P, "P (source processors)");
  require_positive(o.Q, "Q (destination processors)");
  require_positive(o.r, "r (source block size)");
  require_positive(o.s, "s (destination block size)");
  const bool send = o.send;
  require_in_range(o.rank, send ? o.P : o.Q, send ? "--rank (a source processor)" : "--rank (a destination processor)");
  // Tables describe one local complete cycle: an array of one global cycle is enough.
  const Index cycle = checked_lcm(checked_mul(o.r, o.P, "r x P"), checked_mul(o.s, o.Q, "s x Q"), "global complete cycle");
  const CyclicPair pair = cyclic_pair(BlockCyclic(cycle, o.r, o.P), BlockCyclic(cycle, o.s, o.Q), "krr");
  const KrrShape shape = krr_shape(pair);
  Work work;
  const InfoTable table = krr_table(send ? SideView::sender(pair, o.rank) : SideView::receiver(pair, o.rank), work);
  const TableView view{table, send, o.rank};
  return json ? info_table_json(view).dump() + "\n" : title(o, shape, table) + info_table_text(view);
}

}  // namespace redist
