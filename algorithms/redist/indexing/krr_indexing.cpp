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

}  // namespace

RankPlan krr_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                  Work& work) {
  const CyclicPair pair = cyclic_pair(source, dest, "krr");
  krr_shape(pair);  // every rank refuses a pair that is not kr <-> r, taking part or not
  return periodic_plan(pair, ranks, me, materialise, table_pieces, work);
}

}  // namespace redist
