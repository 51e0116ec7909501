#include "redist/indexing/krr_indexing.hpp"

#include "redist/indexing/krr_tables.hpp"
#include "redist/indexing/periodic_plan.hpp"

namespace redist {
namespace {

CyclePieces table_pieces(const SideView& side, Work& work) {
  const InfoTable table = krr_table(side, work);
  CyclePieces pieces(static_cast<std::size_t>(side.peer.procs()));
  for (const TableMessage& message : table.messages) pieces[static_cast<std::size_t>(message.peer)] = table.pieces(message);
  return pieces;
}

bool blocks_divide(const BlockCyclic& a, const BlockCyclic& b) {
  return a.block_size() % b.block_size() == 0 || b.block_size() % a.block_size() == 0;
}

}  // namespace

RankPlan krr_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                  Work& work) {
  const CyclicPair pair = cyclic_pair(source, dest, "krr");
  krr_shape(pair);  // every rank refuses a pair that is not kr <-> r, taking part or not
  return periodic_plan(pair, ranks, me, materialise, table_pieces, work);
}

bool krr_takes(const Layout& source, const Layout& dest) {
  const auto* a = std::get_if<BlockCyclic>(&source.variant());
  const auto* b = std::get_if<BlockCyclic>(&dest.variant());
  if (a != nullptr && b != nullptr) return blocks_divide(*a, *b);
  const auto* from = std::get_if<MultiDimLayout>(&source.variant());
  const auto* to = std::get_if<MultiDimLayout>(&dest.variant());
  if (from == nullptr || to == nullptr || from->shape() != to->shape()) return false;
  for (std::size_t d = 0; d < from->rank(); ++d) {
    if (!blocks_divide(from->dim(d).layout(), to->dim(d).layout())) return false;
  }
  return true;
}

}  // namespace redist
