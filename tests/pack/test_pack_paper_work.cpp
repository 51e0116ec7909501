// The work paper 001's PACK programs did (WorkModel::Paper, paper_work.hpp), checked against a
// hand count on the paper's Figure 1 set-up and against section 6.4's closed form on random cases.
#include <gtest/gtest.h>

#include <array>
#include <mutex>
#include <random>

#include "pack_case.hpp"
#include "redist/pack/paper_work.hpp"
#include "redist/transport/counting_transport.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

using pack::Geometry;

// Per rank: the paper's work of one PACK minus that of its ranking's intermediate and final steps
// (the prefix-reduction-sums, local prefix sums and base-rank sums, counted on their own below).
struct RankWork {
  std::vector<Index> scanned, index_ops, other;
};

RankWork paper_pack_work(const Geometry& g, const std::vector<std::vector<std::uint8_t>>& masks, pack::Scheme scheme) {
  RankWork out{std::vector<Index>(masks.size()), std::vector<Index>(masks.size()), std::vector<Index>(masks.size())};
  std::mutex lock;
  test::ThreadWorld world(static_cast<Rank>(g.processors()));
  world.run([&](Transport& inner) {
    const auto me = static_cast<std::size_t>(inner.rank());
    CountingTransport whole(inner);
    pack::pack(whole, g, test::local_values(g, inner.rank(), test::value_of), masks[me],
               {scheme, pack::PrsAlgorithm::Direct, 0, WorkModel::Paper});
    inner.barrier();
    CountingTransport ranking(inner);
    Work ignored;
    Phases times;
    pack::finish_ranking(ranking, g, pack::count_slices(g, masks[me], ignored), pack::PrsAlgorithm::Direct, times,
                         WorkModel::Paper);
    const std::lock_guard guard(lock);
    out.scanned[me] = whole.work.count(WorkKind::ElementScanned) - ranking.work.count(WorkKind::ElementScanned);
    out.index_ops[me] = whole.work.count(WorkKind::IndexOp) - ranking.work.count(WorkKind::IndexOp);
    for (auto kind : {WorkKind::TableEntry, WorkKind::Intersection, WorkKind::ByteCopied, WorkKind::RunCopied, WorkKind::RunListed}) {
      out.other[me] += whole.work.count(kind);
    }
  });
  return out;
}

// Figure 1's set-up: A(16) and M(16) block-cyclic(2) on 4 processors (L = 4, C = 2 slices of 2), V
// BLOCK (2 elements each). Mask, global indices 0..15: 1 0 1 1 0 0 1 0 | 0 1 1 1 1 0 0 0, so
//   P0 holds g 0 1 8 9 = 1 0 0 1 (E = 2)   P1 holds g 2 3 10 11 = 1 1 1 1 (E = 4)
//   P2 holds g 4 5 12 13 = 0 0 1 0 (E = 1) P3 holds g 6 7 14 15 = 1 0 0 0 (E = 1);  Size = 8.
// Ranks g0→0 g2→1 g3→2 g6→3 g9→4 g10→5 g11→6 g12→7; V: ranks 0-1 on P0, 2-3 P1, 4-5 P2, 6-7 P3.
// Segments sent (runs of consecutive ranks of a slice with one destination): P0 {r0}{r4} Gs = 2,
// P1 {r1}{r2}{r5}{r6} Gs = 4, P2 {r7} Gs = 1, P3 {r3} Gs = 1; received: Gr = 2 on every processor.
// Elements rescanned by CSS/CMS until a slice's true ones are found: P0 1 + 2, P1 2 + 2, P2 1, P3 1.
// Hand count, memory accesses outside the ranking's intermediate/final steps (E_a = 2):
//   SSS: L + 4E (scan, 4 items kept) + C + 2E (base ranks, pairs) + 2E_a = 10 + 6E:       P0 22, P1 34, P2 16, P3 16
//   CSS: L + C + (C + Gs) + S + 2E + 2E_a = 12 + Gs + S + 2E:      P0 21, P1 28, P2 16, P3 16
//   CMS: L + C + (C + Gs) + S + E + 2Gs + E_a + 2Gr = 14 + 3Gs + S + E: P0 25, P1 34, P2 19, P3 19
// Destinations (one division each): SSS one per true element (2 4 1 1); CSS/CMS one per busy slice
// (2 2 1 1) and one per segment (2 4 1 1): 4 6 2 2.
TEST(PaperPackWork, HandCountOnFigureOneSetUp) {
  const Geometry g({16}, {4}, {2});
  const std::vector<std::vector<std::uint8_t>> masks = {{1, 0, 0, 1}, {1, 1, 1, 1}, {0, 0, 1, 0}, {1, 0, 0, 0}};
  const auto sss = paper_pack_work(g, masks, pack::Scheme::Simple);
  const auto css = paper_pack_work(g, masks, pack::Scheme::CompactStorage);
  const auto cms = paper_pack_work(g, masks, pack::Scheme::CompactMessage);
  EXPECT_EQ(sss.scanned, (std::vector<Index>{22, 34, 16, 16}));
  EXPECT_EQ(css.scanned, (std::vector<Index>{21, 28, 16, 16}));
  EXPECT_EQ(cms.scanned, (std::vector<Index>{25, 34, 19, 19}));
  EXPECT_EQ(sss.index_ops, (std::vector<Index>{2, 4, 1, 1}));
  EXPECT_EQ(css.index_ops, (std::vector<Index>{4, 6, 2, 2}));
  EXPECT_EQ(cms.index_ops, (std::vector<Index>{4, 6, 2, 2}));
  for (const auto* w : {&sss, &css, &cms}) {
    EXPECT_EQ(w->other, (std::vector<Index>{0, 0, 0, 0}));  // memory accesses and divisions only
  }
}

// The index arithmetic of 2-D local arrays: a 4 x 8 array over 2 x 2 processors, CYCLIC on dimension 1,
// block-cyclic(2) on dimension 0 (L = 2 x 4, C = 4 slices of 2). Every processor's local mask is
// 1 1 0 0 / 0 1 0 0, so the true elements of (p_1, p_0) are (p_1, 2p_0), (p_1, 2p_0 + 1) and
// (p_1 + 2, 2p_0 + 1): E = 3 in two busy slices. Global mask rows 1111 0000 / 1111 0000 / 0101 0000 /
// 0101 0000 give ranks 0-3, 4-7, 8-9, 10-11; Size = 12, V BLOCK: ranks 3k..3k+2 on processor k.
// Segments: (0,0) {0,1}{8} Gs = 2; (0,1) {2}{3}{9} Gs = 3; (1,0) {4,5}{10} Gs = 2; (1,1) {6,7}{11} Gs = 2.
// Divisions, by hand: SSS a destination and two row-major offsets (PS_f, A_l) per element: 3E = 9;
// CSS/CMS a destination per busy slice and per segment, and (i_1, t_0) of each busy slice: 2 + Gs + 2 x 2.
TEST(PaperPackWork, TwoDimensionalIndexArithmeticByHand) {
  const Geometry g({8, 4}, {2, 2}, {2, 1});  // indexed by dimension: N_0 = 8, W_0 = 2; N_1 = 4, W_1 = 1
  const std::vector<std::uint8_t> local = {1, 1, 0, 0, 0, 1, 0, 0};
  const std::vector<std::vector<std::uint8_t>> masks(4, local);
  std::vector<Index> css_expected(4);
  for (const auto& [p1, p0, gs] : std::vector<std::array<Index, 3>>{{0, 0, 2}, {0, 1, 3}, {1, 0, 2}, {1, 1, 2}}) {
    css_expected[static_cast<std::size_t>(g.proc_of_grid_coords(std::vector<Index>{p0, p1}))] = 2 + gs + 4;
  }
  EXPECT_EQ(paper_pack_work(g, masks, pack::Scheme::Simple).index_ops, (std::vector<Index>{9, 9, 9, 9}));
  EXPECT_EQ(paper_pack_work(g, masks, pack::Scheme::CompactStorage).index_ops, css_expected);
  EXPECT_EQ(paper_pack_work(g, masks, pack::Scheme::CompactMessage).index_ops, css_expected);
  // The helpers alone: nothing on 1-D arrays, d-1 per offset, 2(d-1) per slice located.
  EXPECT_TRUE(pack::paper_record_offsets(1, 100).empty());
  EXPECT_TRUE(pack::paper_slice_coordinates(1, 100).empty());
  EXPECT_EQ(pack::paper_record_offsets(3, 100).count(WorkKind::IndexOp), 200);
  EXPECT_EQ(pack::paper_slice_coordinates(3, 100).count(WorkKind::IndexOp), 400);
}

// Section 6.4, SSS on a 1-D array: L + C + 6E_i + 2E_a on every processor, for random sizes,
// block sizes and densities (E_a = this processor's part of the BLOCK vector V).
TEST(PaperPackWork, SimpleStorageFollowsSectionSixFourOnRandomCases) {
  std::mt19937_64 rng(5);
  const auto pick = [&](Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(rng); };
  for (int trial = 0; trial < 25; ++trial) {
    const Index procs = pick(1, 6), block = pick(1, 5), tiles = pick(1, 4);
    const Geometry g({procs * block * tiles}, {procs}, {block});
    const auto spec = pack::MaskSpec::named("random", pick(0, 10) * 10, static_cast<std::uint64_t>(pick(1, 1000)));
    std::vector<std::vector<std::uint8_t>> masks;
    Index size = 0;
    for (Index p = 0; p < procs; ++p) {
      masks.push_back(pack::local_mask(g, spec, p));
      size += std::count(masks.back().begin(), masks.back().end(), 1);
    }
    const auto sss = paper_pack_work(g, masks, pack::Scheme::Simple);
    const auto v = pack::vector_layout(size, 0, procs);
    for (Index p = 0; p < procs; ++p) {
      const Index e = std::count(masks[static_cast<std::size_t>(p)].begin(), masks[static_cast<std::size_t>(p)].end(), 1);
      const Index e_a = size == 0 ? 0 : v.local_size(p);
      // With Size = 0 PACK stops after the ranking: only the scan (L + (d+3)E = L) is charged.
      const Index expected = size == 0 ? g.local_size() : g.local_size() + g.slices() + 6 * e + 2 * e_a;
      EXPECT_EQ(sss.scanned[static_cast<std::size_t>(p)], expected) << "trial " << trial << " processor " << p;
    }
  }
}

// The ranking's intermediate and final steps (Fig. 2, §5.4) on an 8 x 8 array CYCLIC over 2 x 2
// processors: L_0 = L_1 = T_0 = T_1 = 4, so PS_0/RS_0 have 4 x 4 = 16 entries in 4 segments (W_1 = 1)
// and PS_1/RS_1 have 4 entries in one segment. Direct prefix-reduction-sums over lines of 2: one round,
// the total added by both members, the prefix by the upper one only. Hand count (memory accesses):
//   step 0: 5 per entry (segmented prefix read+write, PS += RS) + 7 per segment = 80 + 28 = 108;
//   step 1: 5 x 4 + 7 x 1 = 27;  final step PS_0 += PS_1: 3 x 16 = 48;  so 183 in all, plus
//   the additions of the prefix-reduction-sums, 3 accesses per entry: (1 or 2) x 48 on dimension 0
//   (g_0 = 0 or 1) and (1 or 2) x 12 on dimension 1 (g_1 = 0 or 1).
// Ranks are g_0 + 2 g_1: 183 + 48 + 12 = 243, 183 + 96 + 12 = 291, 183 + 48 + 24 = 255, 183 + 96 + 24 = 303.
// redist's own accounting charges one unit per entry and per addition: 16 + 4 + 4 + 1 + 16 = 41 plus
// (1 or 2) x 16 and (1 or 2) x 4: 61, 77, 65, 81.
TEST(PaperPackWork, RankingStepsOfATwoDimensionalArrayByHand) {
  const Geometry g({8, 8}, {2, 2}, {1, 1});
  for (auto accounting : {WorkModel::Paper, WorkModel::Redist}) {
    std::vector<Index> scanned(4, -1);
    std::mutex lock;
    test::ThreadWorld world(4);
    world.run([&](Transport& inner) {
      CountingTransport t(inner);
      Phases times;
      const auto ranking = pack::finish_ranking(t, g, std::vector<Index>(16, 1), pack::PrsAlgorithm::Direct, times, accounting);
      if (ranking.size != 64) throw std::runtime_error("Size");
      const std::lock_guard guard(lock);
      scanned[static_cast<std::size_t>(t.rank())] = t.work.count(WorkKind::ElementScanned);
    });
    const bool paper = accounting == WorkModel::Paper;
    EXPECT_EQ(scanned, paper ? (std::vector<Index>{243, 291, 255, 303}) : (std::vector<Index>{61, 77, 65, 81}));
  }
}

// The paper's step functions alone: Fig. 2's counts and the final step's additions.
TEST(PaperPackWork, IntermediateAndFinalStepCounts) {
  EXPECT_EQ(pack::paper_intermediate_step(4096, 64).count(WorkKind::ElementScanned), 5 * 4096 + 7 * 64);
  EXPECT_EQ(pack::paper_intermediate_step(64, 1).count(WorkKind::ElementScanned), 5 * 64 + 7);
  EXPECT_EQ(pack::paper_base_rank_sum(4096).count(WorkKind::ElementScanned), 3 * 4096);
}

// Communication detection: P partners times ΣT_i line segments of the cyclic source, per phase.
TEST(PaperPackWork, DetectionCountsOneIntersectionPerPartnerAndSourceSegment) {
  EXPECT_EQ(pack::paper_detection(Geometry({16384}, {16}, {1})).count(WorkKind::Intersection), 16 * 1024);
  EXPECT_EQ(pack::paper_detection(Geometry({256, 256}, {4, 4}, {1, 1})).count(WorkKind::Intersection), 16 * (64 + 64));
  EXPECT_EQ(pack::paper_detection(Geometry({64}, {4}, {4})).count(WorkKind::Intersection), 4 * 4);
  EXPECT_EQ(pack::paper_detection(Geometry({64}, {4}, {16})).count(WorkKind::Intersection), 4 * 1);
}

// Whole arrays need two detection phases, selected data one; redist's own accounting counts none.
TEST(PaperPackWork, PreredistributionChargesItsDetectionPhases) {
  const Geometry g({32}, {4}, {1});
  const auto spec = pack::MaskSpec::named("random", 50, 3);
  for (auto how : {pack::Preredistribution::SelectedData, pack::Preredistribution::WholeArrays}) {
    for (auto accounting : {WorkModel::Redist, WorkModel::Paper}) {
      test::ThreadWorld world(4);
      world.run([&](Transport& inner) {
        CountingTransport t(inner);
        const auto mask = pack::local_mask(g, spec, t.rank());
        pack::redistribute_to_block(t, g, test::local_values(g, t.rank(), test::value_of), mask, how, accounting);
        const Index phases = accounting == WorkModel::Redist ? 0 : how == pack::Preredistribution::WholeArrays ? 2 : 1;
        if (t.work.count(WorkKind::Intersection) != phases * 4 * 8) throw std::runtime_error("detection phases");
      });
    }
  }
}

// Redistribution of selected data of a 4 x 4 array CYCLIC over 2 x 2 processors (L = 4 each), mask
// true on the top-left 2 x 2 corner: every processor holds one true element and sends it; all four
// belong to the BLOCK processor with grid coordinates (0, 0). Hand count per processor:
//   sender: a destination per dimension for its one pair: 2 divisions; mask tested (4) + pair (2): 6;
//   receiver: the temporary mask (4) + datum and mask stored per pair (2); per pair the global index
//   split into (i_1, i_0) = (g div 4, g mod 4) and a local index per dimension: 2 + 2 = 4 divisions.
// Processor (0, 0): 2 + 4 x 4 = 18 divisions, 6 + 4 + 2 x 4 = 18 accesses; the others 2 and 6 + 4 = 10.
TEST(PaperPackWork, SelectedDataDecomposesEachGlobalIndexOnTheReceiver) {
  const Geometry g({4, 4}, {2, 2}, {1, 1});
  test::ThreadWorld world(4);
  world.run([&](Transport& inner) {
    CountingTransport t(inner);
    std::vector<std::uint8_t> mask(4, 0);
    for (Index offset = 0; offset < 4; ++offset) {
      const auto c = g.global_coords(t.rank(), offset);
      mask[static_cast<std::size_t>(offset)] = c[0] < 2 && c[1] < 2 ? 1 : 0;
    }
    pack::redistribute_to_block(t, g, test::local_values(g, t.rank(), test::value_of), mask,
                                pack::Preredistribution::SelectedData, WorkModel::Paper);
    const bool gets_all = g.grid_coords(t.rank()) == std::vector<Index>{0, 0};
    if (t.work.count(WorkKind::IndexOp) != (gets_all ? 18 : 2)) throw std::runtime_error("divisions");
    if (t.work.count(WorkKind::ElementScanned) != (gets_all ? 18 : 10)) throw std::runtime_error("accesses");
  });
  // One dimension: no decomposition, one local index per pair (as before the 2-D count).
  EXPECT_EQ(pack::paper_selected_receive(1, 1024, 100).count(WorkKind::IndexOp), 100);
  EXPECT_EQ(pack::paper_selected_receive(2, 4096, 100).count(WorkKind::IndexOp), 400);
  EXPECT_EQ(pack::paper_selected_receive(3, 4096, 100).count(WorkKind::IndexOp), 700);
  EXPECT_EQ(pack::paper_selected_receive(2, 4096, 100).count(WorkKind::ElementScanned), 4096 + 200);
}

TEST(PaperPackWork, AccountingNames) {
  EXPECT_EQ(work_model_names().from_name("paper"), WorkModel::Paper);
  EXPECT_EQ(work_model_names().from_name("redist"), WorkModel::Redist);
  EXPECT_EQ(work_model_names().name_of(WorkModel::Paper), "paper");
  EXPECT_THROW(work_model_names().from_name("fortran"), std::invalid_argument);
}

}  // namespace
}  // namespace redist
