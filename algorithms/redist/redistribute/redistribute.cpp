#include "redist/redistribute/redistribute.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "redist/core/checks.hpp"
#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/pitfalls_indexing.hpp"
#include "redist/indexing/tensor_plan.hpp"
#include "redist/indexing/prylli_indexing.hpp"
#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/methods.hpp"
#include "redist/redistribute/naive_indexing.hpp"
#include "redist/redistribute/plan_exchange.hpp"
#include "redist/redistribute/work_accounting.hpp"

namespace redist {
namespace {

void check_buffer(std::size_t have, Index elements, Index elem_bytes, Rank rank, const char* which) {
  const Index need = elements * elem_bytes;
  if (static_cast<Index>(have) != need) {
    throw std::invalid_argument("rank " + std::to_string(rank) + ": " + which + " buffer holds " +
                                std::to_string(have) + " bytes, the layout needs " + std::to_string(need));
  }
}

void validate(const Transport& transport, const Layout& source, const Layout& dest,
              std::span<const std::byte> source_local, std::span<std::byte> dest_local,
              const RedistributeOptions& options) {
  require_positive(options.elem_bytes, "element size");
  if (source.size() != dest.size()) {
    throw std::invalid_argument("source and destination layouts describe arrays of " + std::to_string(source.size()) +
                                " and " + std::to_string(dest.size()) + " elements");
  }
  const Index needed = options.ranks.ranks_needed(source.processors(), dest.processors());
  if (needed > transport.size()) {
    throw std::invalid_argument("the layouts need " + std::to_string(needed) + " ranks, the run has " +
                                std::to_string(transport.size()));
  }
  if (transport.phantom()) return;
  const Rank me = transport.rank();
  const auto p = options.ranks.source_of(me, source.processors());
  const auto q = options.ranks.dest_of(me, dest.processors());
  check_buffer(source_local.size(), p ? source.local_size(*p) : 0, options.elem_bytes, me, "source");
  check_buffer(dest_local.size(), q ? dest.local_size(*q) : 0, options.elem_bytes, me, "destination");
}

RankPlan one_dim_plan(IndexingMethod method, const Layout& source, const Layout& dest, const RankMap& ranks, Rank me,
                      bool materialise, Work& work) {
  switch (method) {
    case IndexingMethod::Naive:
      return naive_plan(source, dest, ranks, me, materialise, work);
    case IndexingMethod::Krr:
      return krr_plan(source, dest, ranks, me, materialise, work);
    case IndexingMethod::Pitfalls:
      return pitfalls_plan(source, dest, ranks, me, materialise, work);
    case IndexingMethod::Prylli:
      return prylli_plan(source, dest, ranks, me, materialise, work);
  }
  throw std::logic_error("unhandled indexing method");
}

// The table and intersection methods index multi-dimensional layouts dimension by dimension; the
// naive owner scan, the baseline, scans every element whatever the layouts.
RankPlan make_plan(IndexingMethod method, const Layout& source, const Layout& dest, const RankMap& ranks, Rank me,
                   bool materialise, Work& work) {
  if (method != IndexingMethod::Naive && tensor_plan_applies(source, dest)) {
    return tensor_plan(source, dest, ranks, me, materialise, work,
                       [method](const Layout& from, const Layout& to, const RankMap& map, Rank rank, bool real,
                                Work& dim_work) { return one_dim_plan(method, from, to, map, rank, real, dim_work); });
  }
  return one_dim_plan(method, source, dest, ranks, me, materialise, work);
}

}  // namespace

RedistributeReport redistribute(Transport& transport, const Layout& source, const Layout& dest,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                const RedistributeOptions& options) {
  const IndexingMethod indexing = indexing_from_name(options.indexing);
  const ScheduleChoice schedule = schedule_from_name(options.schedule);
  validate(transport, source, dest, source_local, dest_local, options);
  const auto accounting = work_accounting(options.work, indexing, source, dest, options.ranks, transport.rank());
  // Computed by every rank from the layouts, before the timed phases, as paper 004 §5.1 does.
  const auto steps = layout_schedule(schedule, source, dest, options.ranks);
  const bool real = !transport.phantom();
  const Index eb = options.elem_bytes;
  RedistributeReport report;
  PhaseTimes& t = report.phases;
  const double start = transport.now();

  Work counted;
  const RankPlan plan = make_plan(indexing, source, dest, options.ranks, transport.rank(), real, counted);
  transport.charge(accounting->index(plan, counted));
  t.index = transport.now() - start;

  exchange_plan(transport, plan, eb, source_local, dest_local, schedule ? steps : nullptr, options.ranks, report, {},
                *accounting);
  t.total = transport.now() - start;
  return report;
}

}  // namespace redist
