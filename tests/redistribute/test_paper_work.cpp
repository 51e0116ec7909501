// work: paper — the work paper 000's programs do (redist/indexing/paper_programs.hpp), checked against a
// hand count on the paper's worked example: Fig. 1, BLOCK-CYCLIC(10) over P = 2 -> BLOCK-CYCLIC(2)
// over Q = 4 on A[1:80], shared ranks (P0 = Q0 = rank 0, ...). GCC = lcm(20, 8) = 40, LCC_s = 20,
// LCC_d = 10; 4-byte elements.
#include <gtest/gtest.h>

#include "redist/indexing/krr_indexing.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/indexing/pitfalls_indexing.hpp"
#include "redist/indexing/prylli_indexing.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist {
namespace {

const BlockCyclic kSource(80, 10, 2);
const BlockCyclic kDest(80, 2, 4);
constexpr Index kElemBytes = 4;

const PeerPlan& peer_of(const std::vector<PeerPlan>& peers, Rank rank) {
  for (const PeerPlan& p : peers) {
    if (p.peer == rank) return p;
  }
  throw std::logic_error("no such peer");
}

struct Indexed {
  RankPlan plan;
  Work counted;
  std::unique_ptr<WorkAccounting> paper;
};

Indexed index_rank(std::string_view method, Rank me) {
  Indexed out;
  const auto plan_of = method == "krr"        ? krr_plan
                       : method == "pitfalls" ? pitfalls_plan
                                                            : prylli_plan;
  out.plan = plan_of(kSource, kDest, RankMap::shared(), me, true, out.counted);
  out.paper = work_accounting("paper", method, kSource, kDest, RankMap::shared(), me);
  return out;
}

TEST(PaperWork, KrrTablesOfTheWorkedExample) {
  // Rank 0 is P0 and Q0.
  //  PIT of P0 (Fig. 3): kr side, m = LCC_s / kr = 20 / 10 = 2 sections: equation (1) once per
  //  section (2 IndexOp) and a (CS, FI) cell per destination and section: 4 x 2 = 8 TableEntry.
  //  UPIT of Q0 (Fig. 5 / Fig. 6): r side, a cell per kr block of the cycle, GCC / kr = 40 / 10 = 4,
  //  each alpha from equation (2) with its modulos: 4 IndexOp + 4 TableEntry.
  //  Allocations: per side the 4 arrays of every program (table, sizes, buffer pointers, requests),
  //  a PIT row per message (P0 sends to Q0..Q3) and a UPIT row per message (Q0 receives from P0 and
  //  P1): (4 + 4) + (4 + 2) = 14.
  const Indexed r0 = index_rank("krr", 0);
  const Work w0 = r0.paper->index(r0.plan, r0.counted);
  EXPECT_EQ(w0.count(WorkKind::IndexOp), 2 + 4);
  EXPECT_EQ(w0.count(WorkKind::TableEntry), 8 + 4);
  EXPECT_EQ(w0.count(WorkKind::Allocation), (4 + 4) + (4 + 2));
  EXPECT_EQ(w0.count(WorkKind::Intersection), 0);
  EXPECT_EQ(w0.count(WorkKind::RunListed), 0);  // the paper's code packs straight from its tables
  // Rank 3 is Q3 only: its UPIT (4 IndexOp, 4 TableEntry) and 4 + 2 allocations.
  const Indexed r3 = index_rank("krr", 3);
  const Work w3 = r3.paper->index(r3.plan, r3.counted);
  EXPECT_EQ(w3.count(WorkKind::IndexOp), 4);
  EXPECT_EQ(w3.count(WorkKind::TableEntry), 4);
  EXPECT_EQ(w3.count(WorkKind::Allocation), 4 + 2);
}

TEST(PaperWork, IntersectionMethodsAllocateAListPerPeerProcessor) {
  // PITFALLS and Prylli intersect with every peer processor, empty intersections included: rank 0
  // allocates the 4 arrays and a list per destination (4) as P0, the 4 arrays and a list per source
  // (2) as Q0. Their intersections: each kr block a pair shares tested against the k = 5 r blocks
  // inside it. As P0, its 2 kr blocks of the cycle (A[0:9], A[20:29]) for each of 4 destinations:
  // 2 x 5 x 4 = 40; as Q0, every kr block of the cycle (P0's 2, P1's 2): 4 x 5 = 20. Their index
  // arithmetic is what the algorithm counts (redist runs the same intersection algorithms).
  for (std::string_view method : {"pitfalls", "prylli"}) {
    const Indexed r0 = index_rank(method, 0);
    const Work w = r0.paper->index(r0.plan, r0.counted);
    EXPECT_EQ(w.count(WorkKind::Allocation), (4 + 4) + (4 + 2)) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::IndexOp), r0.counted.count(WorkKind::IndexOp)) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::Intersection), 40 + 20) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::TableEntry), 0) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::RunListed), 0) << std::string(method);
  }
}

// Section 5, BLOCK -> CYCLIC (Fig. 8, Table 2): k = N/P, the CYCLIC side holds one-element runs, and
// there are N/P intersections between each source and destination processor, ⌊N/P⌋ × P for a
// processor: PITFALLS' and Prylli's index work grows with N, Krr's does not. N = 2000 over P = 4
// (blocks of 500) -> CYCLIC over Q = 5.
TEST(PaperWork, BlockToCyclicCostsTheIntersectionMethodsNOverPPerProcessorPair) {
  const auto counts = [](std::string_view method, Index n, Rank me) {
    const BlockCyclic source(n, n / 4, 4), dest(n, 1, 5);
    Work counted;
    const auto plan_of = method == "krr" ? krr_plan : method == "pitfalls" ? pitfalls_plan : prylli_plan;
    const RankPlan plan = plan_of(source, dest, RankMap::shared(), me, true, counted);
    const auto paper = work_accounting("paper", method, source, dest, RankMap::shared(), me);
    const Work pack = plan.sends.empty() ? Work() : paper->pack(peer_of(plan.sends, 0), kElemBytes);
    return std::make_pair(paper->index(plan, counted), pack);
  };
  for (std::string_view method : {"pitfalls", "prylli"}) {
    // Rank 0 is P0 (500 tests per destination, 5 destinations) and Q0 (500 per source, 4 sources).
    EXPECT_EQ(counts(method, 2000, 0).first.count(WorkKind::Intersection), 500 * 5 + 500 * 4) << std::string(method);
    // Rank 4 is Q4 only.
    EXPECT_EQ(counts(method, 2000, 4).first.count(WorkKind::Intersection), 500 * 4) << std::string(method);
    // Twice the array, twice the intersections.
    EXPECT_EQ(counts(method, 4000, 4).first.count(WorkKind::Intersection), 1000 * 4) << std::string(method);
    // P0's message to Q0: its 100 elements are 100 one-element pieces.
    const Work pack = counts(method, 2000, 0).second;
    EXPECT_EQ(pack.count(WorkKind::RunCopied), 100) << std::string(method);
    EXPECT_EQ(pack.count(WorkKind::ByteCopied), 100 * kElemBytes) << std::string(method);
  }
  // Krr's tables do not grow with N (k = N/P): the same index work at 2000 and 4000 elements.
  const Work krr_small = counts("krr", 2000, 0).first, krr_large = counts("krr", 4000, 0).first;
  for (const WorkKind kind : {WorkKind::IndexOp, WorkKind::TableEntry, WorkKind::Allocation, WorkKind::Intersection}) {
    EXPECT_EQ(krr_small.count(kind), krr_large.count(kind));
  }
  EXPECT_EQ(counts("krr", 2000, 0).second.count(WorkKind::RunCopied), 100);
}

TEST(PaperWork, PackingMessageZeroOfTheWorkedExample) {
  // msg_0 of P0 (Fig. 2(a)): SLA_0[0,1, 8,9, 14,15] and the same 20 further on, 12 elements =
  // 48 bytes, copied chunk by chunk: 3 chunks of r = 2 per local cycle, 2 cycles = 6 loop starts.
  // The message buffer is allocated once. Krr takes (CS, FI) from its table; PITFALLS reads its
  // FALLS family and segment records per piece: 12 RecordCopied; Prylli an interval record per
  // piece: 6. A record read is not an intersection computed: no Intersection while copying.
  for (std::string_view method : {"krr", "pitfalls", "prylli"}) {
    const Indexed r0 = index_rank(method, 0);
    const Work w = r0.paper->pack(peer_of(r0.plan.sends, 0), kElemBytes);
    EXPECT_EQ(w.count(WorkKind::ByteCopied), 48) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::RunCopied), 6) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::Allocation), 1) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::IndexOp), 0) << std::string(method);
    const Index records = method == "pitfalls" ? 12 : method == "prylli" ? 6 : 0;
    EXPECT_EQ(w.count(WorkKind::RecordCopied), records) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::Intersection), 0) << std::string(method);
  }
}

TEST(PaperWork, UnpackingMessageZeroUsesTheOptimisedTable) {
  // Q0 unpacks msg_0 from P0 (Fig. 4(a)): DLA_0[0:3], [6:7] and the same 10 further on. Krr's UPIT
  // (Fig. 5) holds (4, 0) and (2, 6): one entry for the 4 consecutive elements, 2 loop starts per
  // cycle, 4 in all. PITFALLS and Prylli find one intersection per destination block of 2:
  // DLA_0[0:1], [2:3] (both from P0's first block A[1:10]) and [6:7]: 3 per cycle, 6 in all.
  for (std::string_view method : {"krr", "pitfalls", "prylli"}) {
    const Indexed r0 = index_rank(method, 0);
    const Work w = r0.paper->unpack(peer_of(r0.plan.receives, 0), kElemBytes);
    const Index pieces = method == "krr" ? 4 : 6;
    EXPECT_EQ(w.count(WorkKind::ByteCopied), 12 * kElemBytes) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::RunCopied), pieces) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::IndexOp), 0) << std::string(method);
    const Index records = method == "pitfalls" ? 2 * pieces : method == "prylli" ? pieces : 0;
    EXPECT_EQ(w.count(WorkKind::RecordCopied), records) << std::string(method);
    EXPECT_EQ(w.count(WorkKind::Intersection), 0) << std::string(method);
  }
}

TEST(PaperWork, RedistAccountingIsTheDefault) {
  // work: redist charges what redist's own code does: the counted index work plus its run lists,
  // and run-by-run copies (no allocation counted).
  const Indexed r0 = index_rank("krr", 0);
  const auto own = work_accounting("redist", "krr", kSource, kDest, RankMap::shared(), 0);
  Work want = r0.counted;
  want += listing_work(r0.plan);
  const Work got = own->index(r0.plan, r0.counted);
  for (std::size_t k = 0; k < kWorkKinds; ++k) {
    EXPECT_EQ(got.count(static_cast<WorkKind>(k)), want.count(static_cast<WorkKind>(k)));
  }
  const Work pack = own->pack(r0.plan.sends[0], kElemBytes);
  EXPECT_EQ(pack.count(WorkKind::Allocation), 0);
  EXPECT_EQ(pack.count(WorkKind::ByteCopied), copy_work(r0.plan.sends[0], kElemBytes).count(WorkKind::ByteCopied));
}

TEST(PaperWork, NaiveIndexingKeepsRedistsAccountingAndUnknownNamesAreRefused) {
  // Paper 004's program indexes naively and is timed on communication only.
  const auto naive = work_accounting("paper", "naive", kSource, kDest, RankMap::shared(), 0);
  const Indexed r0 = index_rank("krr", 0);
  EXPECT_EQ(naive->pack(r0.plan.sends[0], kElemBytes).count(WorkKind::Allocation), 0);
  EXPECT_THROW(work_accounting("papers", "krr", kSource, kDest, RankMap::shared(), 0),
               std::invalid_argument);
}

}  // namespace
}  // namespace redist
