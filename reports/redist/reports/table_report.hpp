// Views of a Krr packing or unpacking information table: the paper's form (paper 000, Figs. 3
// and 5: one row per message, one (CS, FI) column per class) and the JSON of `redist tables`; and
// the table of one processor of a redistribution, built for them.
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

/// Krr's table of one processor of BLOCK-CYCLIC(r) over P -> BLOCK-CYCLIC(s) over Q.
struct KrrTableRequest {
  Index P = 0, Q = 0, r = 0, s = 0;
  Index rank = 0;
  bool send = true;  ///< the packing table of source `rank`, else the unpacking table of destination `rank`
};

/// The table over one global complete cycle, as `redist tables` prints it: a title, then the paper's
/// form, or with `json` the JSON object. Throws std::invalid_argument naming the option at fault (-P,
/// -Q, -r, -s, --rank), and for a pair Krr does not take (only kr -> r and r -> kr).
std::string krr_table_report(const KrrTableRequest& request, bool json);

}  // namespace redist
