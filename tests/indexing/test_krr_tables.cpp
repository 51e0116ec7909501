// Krr's packing and unpacking information tables (paper 000): Figs. 3 and 5 cell by cell, and
// every table against a brute-force class enumeration of one local complete cycle.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "redist/indexing/krr_tables.hpp"

namespace redist {
namespace {

using Classes = std::vector<TableClass>;

CyclicPair pair_of(Index N, Index r, Index P, Index s, Index Q, Index source_first = 0, Index dest_first = 0) {
  return cyclic_pair(BlockCyclic(N, r, P, source_first), BlockCyclic(N, s, Q, dest_first), "krr");
}

TEST(KrrTables, Figure3PackingTableOfP0) {
  Work work;
  const InfoTable pit = krr_table(SideView::sender(pair_of(80, 10, 2, 2, 4), 0), work);
  EXPECT_EQ(pit.period, 20);
  EXPECT_EQ(pit.shape, ClassShape::Strided);
  ASSERT_EQ(pit.messages.size(), 4u);
  const std::vector<Classes> figure3 = {{{4, 0}, {2, 14}}, {{2, 2}, {2, 16}}, {{2, 4}, {4, 10}}, {{2, 6}, {2, 12}}};
  for (std::size_t j = 0; j < 4; ++j) {
    EXPECT_EQ(pit.messages[j].peer, static_cast<Index>(j));
    EXPECT_EQ(pit.messages[j].classes, figure3[j]) << "msg" << j;
  }
  // Fig. 2(a): msg0 packs SLA0[0, 1, 8, 9] and SLA0[14, 15].
  EXPECT_EQ(pit.pieces(pit.messages[0]), (redist::RunList{{0, 2}, {8, 2}, {14, 2}}));
}

TEST(KrrTables, Figure5UnpackingTableOfQ0) {
  Work work;
  const InfoTable upit = krr_table(SideView::receiver(pair_of(80, 10, 2, 2, 4), 0), work);
  EXPECT_EQ(upit.period, 10);
  EXPECT_EQ(upit.shape, ClassShape::Contiguous);
  ASSERT_EQ(upit.messages.size(), 2u);
  EXPECT_EQ(upit.messages[0].peer, 0);
  EXPECT_EQ(upit.messages[0].classes, (Classes{{4, 0}, {2, 6}}));
  EXPECT_EQ(upit.messages[1].peer, 1);
  EXPECT_EQ(upit.messages[1].classes, (Classes{{2, 4}, {2, 8}}));
}

TEST(KrrTables, RefusesPairsThatAreNotKrToR) {
  Work work;
  const CyclicPair pair = pair_of(120, 3, 2, 2, 4);
  EXPECT_THROW(krr_shape(pair), std::invalid_argument);
  EXPECT_THROW(krr_table(SideView::sender(pair, 0), work), std::invalid_argument);
  const KrrShape shape = krr_shape(pair_of(80, 2, 4, 10, 2));
  EXPECT_FALSE(shape.kr_to_r);
  EXPECT_EQ(shape.k, 5);
  EXPECT_EQ(shape.r, 2);
}

// The oracle: scan one local complete cycle element by element. On the kr-block side a class is
// what one section (own block) sends to one peer (Definition 5); on the r-block side it is a
// maximal range of consecutive local elements of one peer (the optimised table).
std::map<Index, Classes> classes_by_scan(const SideView& side) {
  std::map<Index, Classes> out;
  const bool strided = side.own.block_size() % side.peer.block_size() == 0;
  const Index section = side.own.block_size();
  Index previous_peer = -1;
  for (Index l = 0; l < side.local_period(); ++l) {
    const Index peer = side.peer.owner(side.own.global_index(side.me, l));
    auto& classes = out[peer];
    const bool joins = strided ? !classes.empty() && classes.back().first / section == l / section
                               : peer == previous_peer;
    if (joins) {
      ++classes.back().size;
    } else {
      classes.push_back({1, l});
    }
    previous_peer = peer;
  }
  return out;
}

void expect_table_matches_scan(const SideView& side) {
  Work work;
  const InfoTable table = krr_table(side, work);
  ASSERT_EQ(table.period, side.local_period());
  const auto expected = classes_by_scan(side);
  ASSERT_EQ(table.messages.size(), expected.size());
  for (const auto& message : table.messages) {
    const auto found = expected.find(message.peer);
    ASSERT_NE(found, expected.end()) << "peer " << message.peer;
    ASSERT_EQ(message.classes, found->second) << "peer " << message.peer;
  }
}

TEST(KrrTables, EqualTheClassesOfABruteForceScan) {
  std::mt19937_64 rng(2024);
  std::uniform_int_distribution<Index> procs(1, 9), k_of(1, 12), r_of(1, 4);
  for (int n = 0; n < 1000; ++n) {
    const Index P = procs(rng), Q = procs(rng), k = k_of(rng), r = r_of(rng);
    const Index sf = static_cast<Index>(rng() % static_cast<std::uint64_t>(P));
    const Index df = static_cast<Index>(rng() % static_cast<std::uint64_t>(Q));
    for (const bool kr_to_r : {true, false}) {
      const Index from = kr_to_r ? k * r : r, to = kr_to_r ? r : k * r;
      const CyclicPair pair = pair_of(std::lcm(from * P, to * Q), from, P, to, Q, sf, df);
      for (Index p = 0; p < P; ++p) expect_table_matches_scan(SideView::sender(pair, p));
      for (Index q = 0; q < Q; ++q) expect_table_matches_scan(SideView::receiver(pair, q));
      if (HasFatalFailure()) {
        FAIL() << "P=" << P << " Q=" << Q << " k=" << k << " r=" << r << (kr_to_r ? " kr->r" : " r->kr");
      }
    }
  }
}

TEST(KrrTables, GenerationWorkIsTheTableSizeNotTheArraySize) {
  for (const Index N : {Index{2000}, Index{2000} * 64, Index{2000} * 4096 + 17}) {
    Work send, recv;
    const CyclicPair pair = pair_of(N, 10, 50, 2, 40);
    const InfoTable pit = krr_table(SideView::sender(pair, 3), send);
    const InfoTable upit = krr_table(SideView::receiver(pair, 3), recv);
    EXPECT_EQ(send.count(WorkKind::TableEntry), pit.entries());
    EXPECT_EQ(send.count(WorkKind::TableEntry), 4 * 5);  // m = 4 sections of k = 5 classes
    EXPECT_EQ(recv.count(WorkKind::TableEntry), upit.entries());
    EXPECT_EQ(recv.count(WorkKind::IndexOp), 2000 / 10);  // the sources' blocks of one cycle
    EXPECT_EQ(send.count(WorkKind::ElementScanned) + recv.count(WorkKind::ElementScanned), 0);
  }
}

}  // namespace
}  // namespace redist
