#include "redist/indexing/indexing_methods.hpp"

#include <stdexcept>
#include <string>

#include "redist/core/name_table.hpp"
#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/naive_indexing.hpp"
#include "redist/indexing/paper_programs.hpp"
#include "redist/indexing/pitfalls_indexing.hpp"
#include "redist/indexing/prylli_indexing.hpp"
#include "redist/indexing/tensor_plan.hpp"

namespace redist {
namespace {

// Krr unpacks as messages arrive, PITFALLS and Prylli wait for each source rank in turn (paper 000,
// section 5).
std::vector<IndexingMethod>& table() {
  static std::vector<IndexingMethod> methods = {
      {.name = "naive",
       .plan = naive_plan,
       .unpack_order = UnpackOrder::Arrival,
       .per_dimension = false,
       .counted_work = naive_counted_work,
       .description = "the baseline, which finds the owner of every element one at a time",
       .paper_program = &kNaivePaperProgram},
      {.name = "krr",
       .plan = krr_plan,
       .unpack_order = UnpackOrder::Arrival,
       .per_dimension = true,
       .takes = krr_takes,
       .description = "paper 000's packing/unpacking information tables, for block sizes one a multiple of the other",
       .validation = ValidationShape::DividingBlocks,
       .paper_program = &kKrrPaperProgram},
      {.name = "pitfalls",
       .plan = pitfalls_plan,
       .unpack_order = UnpackOrder::SourceRank,
       .per_dimension = true,
       .description = "Ramaswamy, Simons and Banerjee's intersections of FALLS",
       .paper_program = &kPitfallsPaperProgram},
      {.name = "prylli",
       .plan = prylli_plan,
       .unpack_order = UnpackOrder::SourceRank,
       .per_dimension = true,
       .description = "Prylli and Tourancheau's interval scan, as ScaLAPACK's redistribution",
       .paper_program = &kPrylliPaperProgram},
  };
  return methods;
}

}  // namespace

const std::vector<IndexingMethod>& indexing_methods() { return table(); }

const IndexingMethod& indexing_method(std::string_view name) {
  return find_by_name(indexing_methods(), name, "indexing method");
}

bool method_takes(const IndexingMethod& method, const Layout& source, const Layout& dest) {
  return method.takes == nullptr || method.takes(source, dest);
}

void register_indexing_method(const IndexingMethod& method) {
  for (const IndexingMethod& known : table()) {
    if (known.name == method.name) {
      throw std::invalid_argument("indexing method '" + std::string(method.name) + "' is registered already");
    }
  }
  table().push_back(method);
}

RankPlan make_plan(const IndexingMethod& method, const Layout& source, const Layout& dest, const RankMap& ranks,
                   Rank me, bool materialise, Work& work) {
  RankPlan plan = method.per_dimension && tensor_plan_applies(source, dest)
                      ? tensor_plan(source, dest, ranks, me, materialise, work, method.plan)
                      : method.plan(source, dest, ranks, me, materialise, work);
  plan.unpack_order = method.unpack_order;
  return plan;
}

}  // namespace redist
