// Whose local work a redistribution charges to the transport. By default, redist's own code: what
// its indexing method counted, the run lists it writes, its run-by-run copies. A replay of a paper
// can instead charge the work of the program the paper timed (redist/indexing/paper_programs.hpp,
// named by the method's registry entry):
// the data moved and the messages sent are the same, only the counted work differs.
#pragma once

#include <memory>
#include <string_view>

#include "redist/layout/layout.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"
#include "redist/transport/work_model.hpp"

namespace redist {

class WorkAccounting {
 public:
  virtual ~WorkAccounting() = default;
  /// Work of the index phase; `counted` is what the indexing method counted while building `plan`.
  virtual Work index(const RankPlan& plan, const Work& counted) const;
  /// Work of packing the message to one peer (`send` of the plan), and of unpacking one received.
  virtual Work pack(const PeerPlan& send, Index elem_bytes) const;
  virtual Work unpack(const PeerPlan& receive, Index elem_bytes) const;
  /// True for a program that packs and unpacks every message, its message to itself included (the
  /// papers' programs); redist's own exchange moves long-pieced messages in place and copies the
  /// local part once (direct_exchange.hpp).
  virtual bool packs_every_message() const { return false; }
};

/// redist's own accounting (the default of every redistribution).
const WorkAccounting& redist_work_accounting();

/// The accounting named `work` (work_model_names(): "redist" or "paper") for rank `me`. Throws
/// std::invalid_argument for an unknown name, or for "paper" where no paper's program is modelled (IndexingMethod::paper_program).
std::unique_ptr<WorkAccounting> work_accounting(std::string_view work, std::string_view method, const Layout& source,
                                                const Layout& dest, const RankMap& ranks, Rank me);

}  // namespace redist
