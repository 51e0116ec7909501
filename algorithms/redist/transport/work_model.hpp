// Whose local work a run charges: redist's own code, or the program a paper timed (`work: redist |
// paper` in scenarios, `--work` on the command line). The one table of these names: the
// redistribution's accounting (redist/redistribute/work_accounting.hpp), PACK/UNPACK's
// (redist/pack/paper_work.hpp) and the simulator's `work` parameter all read it.
#pragma once

#include "redist/core/name_table.hpp"

namespace redist {

enum class WorkModel { Redist, Paper };

/// "redist", "paper". Throws std::invalid_argument("unknown work accounting 'x' (known: redist, paper)").
inline const NameTable<WorkModel>& work_model_names() {
  static const NameTable<WorkModel> table("work accounting", {{WorkModel::Redist, "redist"}, {WorkModel::Paper, "paper"}});
  return table;
}

}  // namespace redist
