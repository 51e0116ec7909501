// Every indexing method in one table, which redistribute(), the tests, the benchmark, the
// local-work measurements, `redist validate`'s random cases, the `work: paper` accounting and the
// documented table of choices (`redist experiments`) iterate: a new method is its own files plus
// one entry in indexing_methods.cpp.
#pragma once

#include <string_view>
#include <vector>

#include "redist/core/validation_shape.hpp"
#include "redist/indexing/rank_plan.hpp"
#include "redist/indexing/rank_map.hpp"
#include "redist/layout/layout.hpp"

namespace redist {

struct PaperProgram;  // redist/indexing/paper_programs.hpp

/// The plans of rank `me` (materialise: list the runs, else only count them).
using PlanFunction = RankPlan (*)(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me,
                                  bool materialise, Work& work);

struct IndexingMethod {
  std::string_view name;     ///< as given to redistribute() and the CLI
  PlanFunction plan;         ///< 1-D plans; multi-dimensional ones too unless `per_dimension`
  UnpackOrder unpack_order;  ///< the order its asynchronous exchange unpacks in (paper 000, section 5)
  /// Multi-dimensional layouts are indexed one dimension at a time (tensor_plan), else by `plan`.
  bool per_dimension;
  /// The layout pairs it indexes (null: every pair of its kind); on others `plan` throws
  /// std::invalid_argument on every rank.
  bool (*takes)(const Layout& source, const Layout& dest) = nullptr;
  /// The work `plan` counts, without building the plan (null: only building it tells). Set for
  /// methods whose plan costs O(N) even uncounted (naive), so that predicting stays cheap.
  Work (*counted_work)(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me) = nullptr;
  /// One line, for the documented table of choices (`redist experiments`, scenarios/README.md).
  std::string_view description = "";
  /// The redistributions `redist validate`'s random cases check it on (None: never drawn).
  ValidationShape validation = ValidationShape::AnyBlocks;
  /// The program a paper timed for this method, whose work `work: paper` charges (null: none is
  /// modelled, and `work: paper` refuses the method).
  const PaperProgram* paper_program = nullptr;
};

/// naive, krr, pitfalls, prylli (then any registered).
const std::vector<IndexingMethod>& indexing_methods();

/// Throws std::invalid_argument("unknown indexing method 'x' (known: naive, krr, pitfalls, prylli)").
const IndexingMethod& indexing_method(std::string_view name);

/// True unless the method refuses the pair (`takes`).
bool method_takes(const IndexingMethod& method, const Layout& source, const Layout& dest);

/// Adds a method to the table (a test's stand-in, an extension). Not thread-safe: call before any
/// redistribution runs, e.g. from a static initialiser. Throws std::invalid_argument for a name
/// already taken.
void register_indexing_method(const IndexingMethod& method);

/// The plans of rank `me` by `method`, with the method's unpack order.
RankPlan make_plan(const IndexingMethod& method, const Layout& source, const Layout& dest, const RankMap& ranks,
                   Rank me, bool materialise, Work& work);

}  // namespace redist
