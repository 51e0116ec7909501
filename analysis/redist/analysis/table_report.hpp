// Views of a Krr packing or unpacking information table: the paper's form (paper 000, Figs. 3
// and 5: one row per message, one (CS, FI) column per class) and the JSON of `redist tables`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "redist/indexing/info_table.hpp"

namespace redist {

/// Which table of which processor, for titles and JSON.
struct TableView {
  const InfoTable& table;
  bool send;  ///< PIT of source processor `rank`, else UPIT of destination processor `rank`
  Index rank;
};

/// The table as the paper prints it, rows "msg<peer>" then the (CS, FI) entries in order.
std::string info_table_text(const TableView& view);

/// {"rank":0,"side":"send","messages":[{"peer":0,"classes":[{"size":4,"first":0},...]},...]}.
nlohmann::ordered_json info_table_json(const TableView& view);

}  // namespace redist
