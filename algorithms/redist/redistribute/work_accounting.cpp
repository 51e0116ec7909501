#include "redist/redistribute/work_accounting.hpp"

#include "redist/redistribute/paper_work.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist {

Work WorkAccounting::index(const RankPlan& plan, const Work& counted) const {
  Work work = counted;
  work += listing_work(plan);
  return work;
}

Work WorkAccounting::pack(const PeerPlan& send, Index elem_bytes) const { return copy_work(send, elem_bytes); }

Work WorkAccounting::unpack(const PeerPlan& receive, Index elem_bytes) const { return copy_work(receive, elem_bytes); }

const WorkAccounting& redist_work_accounting() {
  static const WorkAccounting own;
  return own;
}

std::unique_ptr<WorkAccounting> work_accounting(std::string_view work, std::string_view method, const Layout& source,
                                                const Layout& dest, const RankMap& ranks, Rank me) {
  if (work_model_names().from_name(work) == WorkModel::Redist) return std::make_unique<WorkAccounting>();
  // Paper 004's program indexes naively and times communication only: its accounting is redist's.
  if (method == "naive") return std::make_unique<WorkAccounting>();
  return paper_work_accounting(method, source, dest, ranks, me);
}

}  // namespace redist
