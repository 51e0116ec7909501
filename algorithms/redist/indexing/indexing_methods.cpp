#include "redist/indexing/indexing_methods.hpp"

#include <stdexcept>
#include <string>

#include "redist/core/name_table.hpp"
#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/naive_indexing.hpp"
#include "redist/indexing/pitfalls_indexing.hpp"
#include "redist/indexing/prylli_indexing.hpp"
#include "redist/indexing/tensor_plan.hpp"

namespace redist {
namespace {

// Naive: owner scan, the baseline (scans every element whatever the layouts). Krr: packing and
// unpacking information tables (paper 000). PITFALLS: FALLS intersections (Ramaswamy et al.).
// Prylli: interval scan (Prylli & Tourancheau, ScaLAPACK). Krr unpacks as messages arrive,
// PITFALLS and Prylli wait for each source rank in turn (paper 000, section 5).
std::vector<IndexingMethod>& table() {
  static std::vector<IndexingMethod> methods = {
      {"naive", naive_plan, UnpackOrder::Arrival, false, nullptr, naive_counted_work},
      {"krr", krr_plan, UnpackOrder::Arrival, true, krr_takes},
      {"pitfalls", pitfalls_plan, UnpackOrder::SourceRank, true},
      {"prylli", prylli_plan, UnpackOrder::SourceRank, true},
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
