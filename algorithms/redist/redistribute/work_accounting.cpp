#include "redist/redistribute/work_accounting.hpp"

#include <stdexcept>
#include <string>

#include "redist/indexing/cyclic_pair.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/indexing/paper_programs.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist {
namespace {

// The work of the program a paper timed for the indexing method (redist/indexing/paper_programs.hpp).
class PaperWork final : public WorkAccounting {
 public:
  PaperWork(const PaperProgram& program, CyclicPair pair, RankMap ranks, Rank me)
      : program_(program), pair_(std::move(pair)), ranks_(ranks), me_(me) {}

  Work index(const RankPlan& plan, const Work& counted) const override {
    return paper_index_work(program_, pair_, ranks_, me_, plan, counted);
  }
  Work pack(const PeerPlan& send, Index elem_bytes) const override { return paper_copy_work(program_, send, elem_bytes); }
  Work unpack(const PeerPlan& receive, Index elem_bytes) const override {
    return paper_copy_work(program_, receive, elem_bytes);
  }
  bool packs_every_message() const override { return true; }

 private:
  const PaperProgram& program_;
  CyclicPair pair_;
  RankMap ranks_;
  Rank me_;
};

// Paper 004's program: redist's counts (it indexes naively and times communication only), every
// message packed and unpacked, as the paper's procedure does (§5.1).
class PaperProgramCounts final : public WorkAccounting {
 public:
  bool packs_every_message() const override { return true; }
};

// "naive, krr, ...": the methods whose paper's program is modelled.
std::string modelled_programs() {
  std::string names;
  for (const IndexingMethod& method : indexing_methods()) {
    if (method.paper_program != nullptr) names += (names.empty() ? "" : ", ") + std::string(method.name);
  }
  return names;
}

}  // namespace

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
  const PaperProgram* program = indexing_method(method).paper_program;
  if (program == nullptr) {
    throw std::invalid_argument("work 'paper' models the programs the papers timed for indexing " + modelled_programs() +
                                "; indexing '" + std::string(method) + "' has none");
  }
  if (program->side_index_work == nullptr) return std::make_unique<PaperProgramCounts>();
  return std::make_unique<PaperWork>(*program, cyclic_pair(source, dest, method), ranks, me);
}

}  // namespace redist
