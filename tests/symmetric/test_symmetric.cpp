// Symmetric matrix redistribution (paper 002): TR and SRA move real data and leave every rank its
// destination lines; Lemma 3's count of what SRA avoids sending, message by message, against a scan.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "redist/core/int_math.hpp"
#include "redist/symmetric/symmetric_counts.hpp"
#include "redist/symmetric/symmetric_plan.hpp"
#include "redist/symmetric/symmetric_redistribute.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

constexpr SymmetricMethod kMethods[] = {SymmetricMethod::Traditional, SymmetricMethod::Sra};
constexpr Orientation kOrientations[] = {Orientation::RowWise, Orientation::ColumnWise};

// Random problems: small n, P and blocks, BLOCK and CYCLIC among them, n rarely a multiple of P·x.
std::vector<SymmetricProblem> random_problems(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Index> order(1, 60), procs(1, 9), kind(0, 3);
  std::vector<SymmetricProblem> problems;
  while (problems.size() < count) {
    SymmetricProblem p;
    p.n = order(rng);
    p.procs = procs(rng);
    const auto pick_block = [&] {
      switch (kind(rng)) {
        case 0: return ceil_div(p.n, p.procs);  // BLOCK
        case 1: return Index{1};                // CYCLIC
        default: return std::uniform_int_distribution<Index>(1, p.n + 2)(rng);
      }
    };
    p.x = pick_block();
    p.y = pick_block();
    problems.push_back(p);
  }
  return problems;
}

struct RunOutcome {
  std::vector<VerifiedReport> reports;
};

RunOutcome run_everywhere(const SymmetricProblem& problem, SymmetricMethod method, Index elem_bytes) {
  RunOutcome outcome;
  outcome.reports.resize(static_cast<std::size_t>(problem.procs));
  test::ThreadWorld world(static_cast<Rank>(problem.procs));
  world.run([&](Transport& transport) {
    outcome.reports[static_cast<std::size_t>(transport.rank())] =
        redistribute_symmetric_and_verify(transport, problem, method, elem_bytes);
  });
  return outcome;
}

std::string describe(const SymmetricProblem& p, SymmetricMethod method) {
  return "n=" + std::to_string(p.n) + " P=" + std::to_string(p.procs) + " x=" + std::to_string(p.x) +
         " y=" + std::to_string(p.y) + (p.orientation == Orientation::RowWise ? " row" : " column") +
         (method == SymmetricMethod::Sra ? " sra" : " tr");
}

TEST(SymmetricRedistribution, EveryRankEndsWithExactlyItsDestinationLines) {
  const auto problems = random_problems(320, 20261122);
  int not_multiple = 0;
  for (SymmetricProblem problem : problems) {
    if (problem.n % (problem.procs * problem.x) != 0) ++not_multiple;
    for (Orientation orientation : kOrientations) {
      problem.orientation = orientation;
      for (SymmetricMethod method : kMethods) {
        const Index elem_bytes = problem.n % 2 == 0 ? 4 : 8;
        const RunOutcome outcome = run_everywhere(problem, method, elem_bytes);
        for (Index p = 0; p < problem.procs; ++p) {
          const VerifiedReport& r = outcome.reports[static_cast<std::size_t>(p)];
          ASSERT_TRUE(r.verified.has_value());
          ASSERT_TRUE(*r.verified) << describe(problem, method) << " rank " << p << ": " << r.misplaced << " wrong";
          // What the rank sent is what the closed form says, peer by peer summed.
          Index elements = 0, messages = 0;
          for (Index q = 0; q < problem.procs; ++q) {
            const Index e = message_elements(problem, method, p, q);
            elements += e;
            messages += e > 0 ? 1 : 0;
          }
          EXPECT_EQ(r.report.bytes_sent, elements * elem_bytes) << describe(problem, method) << " rank " << p;
          EXPECT_EQ(r.report.messages_sent, messages) << describe(problem, method) << " rank " << p;
        }
      }
    }
  }
  EXPECT_GE(not_multiple, 200);  // most cases have n not a multiple of P·x
}

// Brute force over every matrix element: who sends what to whom under TR, and which of these
// elements have their twin in the destination's source lines.
struct ScannedMessage {
  Index lines = 0;
  Index elements = 0;  // TR
  Index avoided = 0;   // twin already at the destination
};

ScannedMessage scan(const SymmetricProblem& problem, Index p, Index q) {
  const BlockCyclic source = problem.source(), dest = problem.dest();
  ScannedMessage m;
  for (Index line = 0; line < problem.n; ++line) {
    if (source.owner(line) != p || dest.owner(line) != q) continue;
    ++m.lines;
    for (Index position = 0; position < problem.n; ++position) {
      ++m.elements;
      if (source.owner(position) == q) ++m.avoided;  // q holds line `position`: element (position, line)
    }
  }
  return m;
}

TEST(SymmetricRedistribution, Lemma3MessageByMessageAgainstABruteForceCount) {
  int exact_cases = 0, messages = 0;
  for (SymmetricProblem problem : random_problems(300, 3)) {
    for (Orientation orientation : kOrientations) {
      problem.orientation = orientation;
      const bool divisible = problem.n % (problem.procs * problem.x) == 0;
      std::vector<SymmetricPlan> tr, sra;
      for (Index me = 0; me < problem.procs; ++me) {
        Work work;
        tr.push_back(symmetric_plan(problem, SymmetricMethod::Traditional, me, true, work));
        sra.push_back(symmetric_plan(problem, SymmetricMethod::Sra, me, true, work));
      }
      const auto elements_to = [](const std::vector<PeerPlan>& peers, Index peer) {
        for (const auto& plan : peers) {
          if (plan.peer == peer) return plan.elements;
        }
        return Index{0};
      };
      for (Index p = 0; p < problem.procs; ++p) {
        for (Index q = 0; q < problem.procs; ++q) {
          const ScannedMessage m = scan(problem, p, q);
          ASSERT_EQ(lines_moved(problem, p, q), m.lines) << describe(problem, SymmetricMethod::Sra);
          const auto& tr_sends = tr[static_cast<std::size_t>(p)].exchange.sends;
          const auto& sra_sends = sra[static_cast<std::size_t>(p)].exchange.sends;
          const auto& sra_receives = sra[static_cast<std::size_t>(q)].exchange.receives;
          if (p == q) {  // what stays is copied whole by both methods
            EXPECT_EQ(elements_to(tr_sends, q), m.elements);
            EXPECT_EQ(elements_to(sra_sends, q), m.elements);
            continue;
          }
          EXPECT_EQ(elements_to(tr_sends, q), m.elements);
          EXPECT_EQ(sra_avoided_elements(problem, p, q), m.avoided) << describe(problem, SymmetricMethod::Sra);
          EXPECT_EQ(elements_to(sra_sends, q), m.elements - m.avoided) << describe(problem, SymmetricMethod::Sra);
          EXPECT_EQ(elements_to(sra_receives, p), m.elements - m.avoided);
          EXPECT_EQ(message_elements(problem, SymmetricMethod::Sra, p, q), m.elements - m.avoided);
          if (m.elements == 0) continue;
          ++messages;
          if (divisible) {
            // Lemma 3 exactly: S_j × (1/P) of the message already exists at the destination.
            EXPECT_EQ(m.avoided * problem.procs, m.elements) << describe(problem, SymmetricMethod::Sra);
            ++exact_cases;
          } else {
            // Otherwise q's share of the lines differs from n/P by less than one block.
            const double share = static_cast<double>(m.avoided) / static_cast<double>(m.elements);
            EXPECT_LE(std::abs(share - 1.0 / static_cast<double>(problem.procs)),
                      static_cast<double>(problem.x) / static_cast<double>(problem.n) + 1e-12)
                << describe(problem, SymmetricMethod::Sra);
          }
        }
      }
    }
  }
  EXPECT_GE(exact_cases, 20);
  EXPECT_GE(messages, 1000);
}

// Paper 002, Figures 1 and 2: BC(BLOCK,*) -> BC(2,*) on M(12×12) over 3 processors.
TEST(SymmetricRedistribution, PaperFigure2Example) {
  const SymmetricProblem problem{12, 3, 4, 2, Orientation::RowWise};
  const std::vector<std::vector<Rank>> dps = {{0, 1}, {0, 2}, {1, 2}};  // DPS[P_i], equal to SPS[P_i] here
  for (Index me = 0; me < 3; ++me) {
    Work work;
    const SymmetricPlan plan = symmetric_plan(problem, SymmetricMethod::Sra, me, true, work);
    std::vector<Rank> sends, receives;
    for (const auto& s : plan.exchange.sends) {
      if (s.elements > 0) sends.push_back(s.peer);
    }
    for (const auto& r : plan.exchange.receives) {
      if (r.elements > 0) receives.push_back(r.peer);
    }
    EXPECT_EQ(sends, dps[static_cast<std::size_t>(me)]);
    EXPECT_EQ(receives, dps[static_cast<std::size_t>(me)]);
  }
  // RDS[P1 <- 0] is rows 2 and 3 (24 elements); row 3's columns 4..7 (4d, 4e, 4f, 4g, boldface in the
  // paper) and row 2's are twins of P1's source rows 4..7: 8 of 24, i.e. 1/P, are not sent.
  EXPECT_EQ(message_elements(problem, SymmetricMethod::Traditional, 0, 1), 24);
  EXPECT_EQ(sra_avoided_elements(problem, 0, 1), 8);
  Work work;
  const SymmetricPlan p0 = symmetric_plan(problem, SymmetricMethod::Sra, 0, true, work);
  ASSERT_EQ(p0.exchange.sends[1].peer, 1);
  // Rows 2 and 3 (local offsets 24..47), columns 0..3 and 8..11: row 2's last piece and row 3's first
  // are adjacent in storage, so three runs.
  const redist::RunList runs = {{24, 4}, {32, 8}, {44, 4}};
  EXPECT_EQ(p0.exchange.sends[1].runs, runs);
}

TEST(SymmetricRedistribution, SraIndexesMoreAndPacksLess) {
  for (SymmetricProblem problem : random_problems(60, 11)) {
    if (problem.procs < 2) continue;
    for (Orientation orientation : kOrientations) {
      problem.orientation = orientation;
      for (Index me = 0; me < problem.procs; ++me) {
        Work tr_work, sra_work;
        const SymmetricPlan tr = symmetric_plan(problem, SymmetricMethod::Traditional, me, false, tr_work);
        const SymmetricPlan sra = symmetric_plan(problem, SymmetricMethod::Sra, me, false, sra_work);
        const Index local = problem.source().local_size(me) + problem.dest().local_size(me);
        EXPECT_EQ(sra_work.count(WorkKind::ElementScanned), local * problem.n);
        EXPECT_EQ(tr_work.count(WorkKind::ElementScanned), 0);
        EXPECT_EQ(sra_work.count(WorkKind::IndexOp), tr_work.count(WorkKind::IndexOp) + 2 * problem.n);
        Index tr_sent = 0, sra_sent = 0;
        for (const auto& s : tr.exchange.sends) tr_sent += s.elements;
        for (const auto& s : sra.exchange.sends) sra_sent += s.elements;
        Index avoided = 0;
        for (Index q = 0; q < problem.procs; ++q) avoided += sra_avoided_elements(problem, me, q);
        EXPECT_EQ(sra_sent, tr_sent - avoided);
        // What SRA does not receive it rebuilds: every destination element is accounted for once.
        Index sra_received = 0;
        for (const auto& r : sra.exchange.receives) sra_received += r.elements;
        EXPECT_EQ(sra_received + sra.rebuilt, problem.dest().local_size(me) * problem.n);
        EXPECT_EQ(tr.rebuilt, 0);
      }
    }
  }
}

TEST(SymmetricRedistribution, CountsWithoutRunsEqualCountsWithRuns) {
  for (SymmetricProblem problem : random_problems(300, 5)) {
    for (Orientation orientation : kOrientations) {
      problem.orientation = orientation;
      for (SymmetricMethod method : kMethods) {
        for (Index me = 0; me < problem.procs; ++me) {
          Work with, without;
          const auto a = symmetric_plan(problem, method, me, true, with);
          const auto b = symmetric_plan(problem, method, me, false, without);
          // Counted in closed form without runs; enumerated run by run with them.
          for (const auto side : {&RankPlan::sends, &RankPlan::receives}) {
            const auto& listed = a.exchange.*side;
            const auto& counted = b.exchange.*side;
            ASSERT_EQ(listed.size(), counted.size());
            for (std::size_t k = 0; k < listed.size(); ++k) {
              EXPECT_EQ(listed[k].peer, counted[k].peer);
              EXPECT_EQ(listed[k].elements, counted[k].elements) << describe(problem, method);
              EXPECT_EQ(listed[k].run_count, counted[k].run_count) << describe(problem, method);
              EXPECT_EQ(piece_count(listed[k].runs), listed[k].run_count);
              EXPECT_TRUE(counted[k].runs.empty());
            }
          }
          for (WorkKind kind : {WorkKind::IndexOp, WorkKind::TableEntry, WorkKind::ElementScanned}) {
            EXPECT_EQ(with.count(kind), without.count(kind));
          }
        }
      }
    }
  }
}

TEST(SymmetricRedistribution, BadInputIsRejectedWithAReason) {
  const auto rejects = [](SymmetricProblem p) { EXPECT_ANY_THROW(p.validate()); };
  rejects({0, 3, 1, 1, Orientation::RowWise});
  rejects({10, 0, 1, 1, Orientation::RowWise});
  rejects({10, 3, 0, 1, Orientation::RowWise});
  rejects({10, 3, 1, -2, Orientation::RowWise});
  rejects({Index{1} << 32, 3, 1, 1, Orientation::RowWise});             // n² overflows
  rejects({10, Index{1} << 40, Index{1} << 40, 1, Orientation::RowWise});  // x·P overflows
  EXPECT_THROW(symmetric_method_from_name("fast"), std::invalid_argument);
  EXPECT_THROW(orientation_from_name("diagonal"), std::invalid_argument);
  EXPECT_EQ(symmetric_method_from_name("sra"), SymmetricMethod::Sra);
  EXPECT_EQ(orientation_from_name("column"), Orientation::ColumnWise);
  // A run over the wrong number of ranks or with wrongly sized buffers.
  const SymmetricProblem problem{8, 2, 4, 1, Orientation::RowWise};
  test::ThreadWorld three(3);
  EXPECT_THROW(three.run([&](Transport& t) { redistribute_symmetric_and_verify(t, problem, SymmetricMethod::Sra, 4); }),
               std::invalid_argument);
  test::ThreadWorld two(2);
  EXPECT_THROW(two.run([&](Transport& t) {
                 std::vector<std::byte> too_small(3);
                 redistribute_symmetric(t, problem, SymmetricMethod::Traditional, 4, too_small, too_small);
               }),
               std::invalid_argument);
}

}  // namespace
}  // namespace redist
