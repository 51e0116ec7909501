#include "redist/redistribute/work_accounting.hpp"

#include <stdexcept>
#include <string>

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

namespace {

// Paper 004's program: redist's counts (it indexes naively and times communication only), every
// message packed and unpacked, as the paper's procedure does (§5.1).
class PaperProgramCounts final : public WorkAccounting {
 public:
  bool packs_every_message() const override { return true; }
};

}  // namespace

const WorkAccounting& redist_work_accounting() {
  static const WorkAccounting own;
  return own;
}

std::unique_ptr<WorkAccounting> work_accounting(std::string_view work, std::string_view method, const Layout& source,
                                                const Layout& dest, const RankMap& ranks, Rank me) {
  if (work == "redist") return std::make_unique<WorkAccounting>();
  if (work == "paper" && method == "naive") return std::make_unique<PaperProgramCounts>();
  if (work == "paper") return paper_work_accounting(method, source, dest, ranks, me);
  throw std::invalid_argument("unknown work accounting '" + std::string(work) + "' (known: redist, paper)");
}

}  // namespace redist
