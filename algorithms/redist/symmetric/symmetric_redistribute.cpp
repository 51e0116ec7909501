#include "redist/symmetric/symmetric_redistribute.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/core/splitmix.hpp"
#include "redist/core/checks.hpp"
#include "redist/redistribute/plan_exchange.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/symmetric/symmetric_plan.hpp"

namespace redist {
namespace {

Index slab_bytes(const SymmetricProblem& problem, const BlockCyclic& layout, Index rank, Index elem_bytes) {
  return checked_mul(checked_mul(layout.local_size(rank), problem.n, "local elements"), elem_bytes, "local bytes");
}

void validate(const Transport& transport, const SymmetricProblem& problem, Index elem_bytes,
              std::span<const std::byte> source_slab, std::span<std::byte> dest_slab) {
  problem.validate();
  require_positive(elem_bytes, "element size");
  if (transport.size() != problem.procs) {
    throw std::invalid_argument("the redistribution is over " + std::to_string(problem.procs) + " processors, the run has " +
                                std::to_string(transport.size()) + " ranks");
  }
  if (transport.phantom()) return;
  const Rank me = transport.rank();
  const Index need_source = slab_bytes(problem, problem.source(), me, elem_bytes);
  const Index need_dest = slab_bytes(problem, problem.dest(), me, elem_bytes);
  if (static_cast<Index>(source_slab.size()) != need_source || static_cast<Index>(dest_slab.size()) != need_dest) {
    throw std::invalid_argument("rank " + std::to_string(me) + ": buffers of " + std::to_string(source_slab.size()) +
                                " and " + std::to_string(dest_slab.size()) + " bytes, the layouts need " +
                                std::to_string(need_source) + " and " + std::to_string(need_dest));
  }
}

// Element (line, position) of a slab, as matrix coordinates: symmetric values make them interchangeable.
template <class Visit>
void for_each_element(const SymmetricProblem& problem, const BlockCyclic& layout, Index rank, Visit visit) {
  const Index lines = layout.local_size(rank);
  for (Index local = 0; local < lines; ++local) {
    const Index line = layout.global_index(rank, local);
    for (Index position = 0; position < problem.n; ++position) visit(line, position, problem.offset(local, position, lines));
  }
}

}  // namespace

RedistributeReport redistribute_symmetric(Transport& transport, const SymmetricProblem& problem,
                                          SymmetricMethod method, Index elem_bytes,
                                          std::span<const std::byte> source_slab, std::span<std::byte> dest_slab,
                                          SymmetricWork work) {
  validate(transport, problem, elem_bytes, source_slab, dest_slab);
  const bool real = !transport.phantom();
  const Rank me = transport.rank();
  RedistributeReport report;
  Phases& t = report.phases;
  const double start = transport.now();

  // Steps 1 and 4 (indexing of both distributions; SRA: both dimensions and the intersection).
  Work index_work;
  const SymmetricPlan plan = symmetric_plan(problem, method, me, real, index_work);
  index_work += listing_work(plan.exchange);
  const bool per_element_owners = work == SymmetricWork::PaperListing;
  if (per_element_owners) {  // the listing's packing loop: the owner of every element packed
    for (const PeerPlan& to : plan.exchange.sends) index_work += listing_owner_work(to.elements);
  }
  transport.charge(index_work);
  t.index = transport.now() - start;

  // Steps 2, 3, 5 and 6: packing (the part that stays here included), the exchange, unpacking. The
  // local part is unpacked while messages travel; SRA rebuilds its twins then.
  exchange_plan(transport, plan.exchange, elem_bytes, source_slab, dest_slab, nullptr, RankMap::shared(), report,
                [&](const PeerPlan& from) {
                  // The listing's unpacking loop: the owner of every element unpacked.
                  Work done = per_element_owners ? listing_owner_work(from.elements) : Work();
                  if (from.peer != me || plan.rebuilt == 0) return done;
                  if (real) rebuild_from_twins(problem, me, source_slab.data(), dest_slab.data(), elem_bytes);
                  return done += rebuild_work(plan.rebuilt, elem_bytes);
                });
  t.total = transport.now() - start;
  return report;
}

void fill_symmetric_element(Index n, Index row, Index col, std::byte* out, Index elem_bytes) {
  const auto pair = static_cast<std::uint64_t>(std::min(row, col)) * static_cast<std::uint64_t>(n) +
                    static_cast<std::uint64_t>(std::max(row, col));
  for (Index done = 0, salt = 0; done < elem_bytes; done += 8, ++salt) {
    const std::uint64_t value = splitmix64(pair * 31 + static_cast<std::uint64_t>(salt));
    std::memcpy(out + done, &value, static_cast<std::size_t>(std::min<Index>(8, elem_bytes - done)));
  }
}

VerifiedReport redistribute_symmetric_and_verify(Transport& transport, const SymmetricProblem& problem,
                                                 SymmetricMethod method, Index elem_bytes, SymmetricWork work) {
  VerifiedReport result;
  if (transport.phantom()) {
    result.report = redistribute_symmetric(transport, problem, method, elem_bytes, {}, {}, work);
    return result;
  }
  problem.validate();
  require_positive(elem_bytes, "element size");
  const Rank me = transport.rank();
  const BlockCyclic source = problem.source(), dest = problem.dest();
  std::vector<std::byte> source_slab(static_cast<std::size_t>(slab_bytes(problem, source, me, elem_bytes)));
  std::vector<std::byte> dest_slab(static_cast<std::size_t>(slab_bytes(problem, dest, me, elem_bytes)));
  for_each_element(problem, source, me, [&](Index line, Index position, Index offset) {
    fill_symmetric_element(problem.n, line, position, source_slab.data() + offset * elem_bytes, elem_bytes);
  });
  result.report = redistribute_symmetric(transport, problem, method, elem_bytes, source_slab, dest_slab, work);

  std::vector<std::byte> expected(static_cast<std::size_t>(elem_bytes));
  for_each_element(problem, dest, me, [&](Index line, Index position, Index offset) {
    fill_symmetric_element(problem.n, line, position, expected.data(), elem_bytes);
    if (std::memcmp(expected.data(), dest_slab.data() + offset * elem_bytes, expected.size()) != 0) ++result.misplaced;
  });
  result.verified = result.misplaced == 0;
  return result;
}

}  // namespace redist
