// Paper 004, section 4: communication grids, classes, Lemma 2 and Proposition 5.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "paper_table.hpp"
#include "sanitizer_share.hpp"
#include "redist/core/int_math.hpp"
#include "redist/comm_grid/classes.hpp"
#include "redist/comm_grid/comm_grid.hpp"

namespace redist {
namespace {

struct PaperGridCase {
  const char* table;
  Redistribution redist;
  Index L;
};

class PublishedGridTest : public ::testing::TestWithParam<PaperGridCase> {};

// Every entry of the published grid, by both the closed form and the brute-force scan.
TEST_P(PublishedGridTest, EntriesMatchCellByCell) {
  const auto& c = GetParam();
  const auto published = test::read_published_grid(std::string(REDIST_TEST_DATA) + "/paper004/" + c.table + ".txt");
  const CommGrid closed = comm_grid(c.redist);
  const CommGrid scanned = comm_grid_by_scan(c.redist);
  EXPECT_EQ(closed.slice_length(), c.L);
  ASSERT_EQ(static_cast<Index>(published.entries.size()), c.redist.P);
  for (Index p = 0; p < c.redist.P; ++p) {
    ASSERT_EQ(static_cast<Index>(published.entries[p].size()), c.redist.Q) << "row " << p;
    for (Index q = 0; q < c.redist.Q; ++q) {
      EXPECT_EQ(closed.length(p, q), published.entries[p][q]) << c.table << " closed form, cell (" << p << "," << q << ")";
      EXPECT_EQ(scanned.length(p, q), published.entries[p][q]) << c.table << " scan, cell (" << p << "," << q << ")";
    }
  }
}

// The per-sender counts ("Nbr of msg." column) are printed correctly in every table.
TEST_P(PublishedGridTest, RowCountsMatch) {
  const auto& c = GetParam();
  const auto published = test::read_published_grid(std::string(REDIST_TEST_DATA) + "/paper004/" + c.table + ".txt");
  const CommGrid grid = comm_grid(c.redist);
  for (Index p = 0; p < c.redist.P; ++p) EXPECT_EQ(grid.messages_sent(p), published.row_counts[p]) << "sender " << p;
}

INSTANTIATE_TEST_SUITE_P(Paper004, PublishedGridTest,
                         ::testing::Values(PaperGridCase{"table01", {16, 3, 16, 5}, 240},
                                           PaperGridCase{"table04", {16, 7, 16, 11}, 1232},
                                           PaperGridCase{"table07", {15, 3, 15, 5}, 225},
                                           PaperGridCase{"table10", {12, 4, 8, 3}, 48},
                                           PaperGridCase{"table13", {15, 12, 15, 20}, 900},
                                           PaperGridCase{"table14", {15, 2, 6, 3}, 90}),
                         [](const auto& test_case) { return std::string(test_case.param.table); });

// Per-receiver counts (the "Nbr of msg." row). Tables 7, 10 and 13 misprint some of them; the
// entries above are what count, so here each published count is compared and the known typos are
// listed explicitly: every other column must agree.
TEST(PublishedGridSummary, ColumnCountsAgreeExceptDocumentedTypos) {
  struct Case {
    const char* table;
    Redistribution redist;
    std::vector<Index> typo_columns;
  };
  const std::vector<Case> cases = {
      {"table01", {16, 3, 16, 5}, {}},
      {"table04", {16, 7, 16, 11}, {}},
      // Table 7 prints 9 for receiver 14; its entries (rows 3, 4, 8, 9, 13, 14) give 6.
      {"table07", {15, 3, 15, 5}, {14}},
      // Table 10 prints 4 for receiver 7; its entries (rows 5 and 11) give 2.
      {"table10", {12, 4, 8, 3}, {7}},
      // Table 13 repeats table 7's summary row, with the same typo for receiver 14.
      {"table13", {15, 12, 15, 20}, {14}},
      {"table14", {15, 2, 6, 3}, {}},
  };
  for (const auto& c : cases) {
    const auto published = test::read_published_grid(std::string(REDIST_TEST_DATA) + "/paper004/" + c.table + ".txt");
    const CommGrid grid = comm_grid(c.redist);
    ASSERT_EQ(static_cast<Index>(published.column_counts.size()), c.redist.Q) << c.table;
    for (Index q = 0; q < c.redist.Q; ++q) {
      const bool typo = std::find(c.typo_columns.begin(), c.typo_columns.end(), q) != c.typo_columns.end();
      if (typo) {
        EXPECT_NE(grid.messages_received(q), published.column_counts[q]) << c.table << " typo column " << q;
      } else {
        EXPECT_EQ(grid.messages_received(q), published.column_counts[q]) << c.table << " receiver " << q;
      }
    }
  }
}

// Lemma 1: with Δ = gcd(r, s), the grid is the reduced grid scaled by Δ (table 13 = 4 × table 7).
TEST(Lemma1, ScalingByGcd) {
  const CommGrid reduced = comm_grid({15, 3, 15, 5});
  const CommGrid scaled = comm_grid({15, 12, 15, 20});
  for (std::size_t k = 0; k < reduced.lengths().size(); ++k) {
    EXPECT_EQ(scaled.lengths()[k], 4 * reduced.lengths()[k]);
  }
}

// Paper 004, back to example 3: the members of class(1) for P = Q = 15, r = 3, s = 5.
TEST(Proposition1, Example3Class1) {
  auto members = class_members({15, 3, 15, 5}, 1);
  std::sort(members.begin(), members.end());
  std::vector<std::pair<Index, Index>> expected = {{2, 1},  {7, 4},  {12, 7}, {2, 10}, {7, 13},
                                                   {12, 1}, {2, 4},  {7, 7},  {12, 10}, {2, 13},
                                                   {7, 1},  {12, 4}, {2, 7},  {7, 10}, {12, 13}};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(members, expected);
}

// Paper 004, back to example 4: g = 24, f(11, 0) = -4 (no message), f(11, 6) = 2 (a message).
TEST(Lemma2, Example4Pairs) {
  const Redistribution redist{12, 4, 8, 3};
  EXPECT_EQ(reduce(redist).g, 24);
  EXPECT_EQ(class_of(redist, 11, 0), floor_mod(-4, 24));
  EXPECT_EQ(class_of(redist, 11, 6), 2);
  EXPECT_EQ(class_length(redist, class_of(redist, 11, 0)), 0);
  EXPECT_GT(class_length(redist, class_of(redist, 11, 6)), 0);
  EXPECT_FALSE(is_all_to_all(redist));
  EXPECT_TRUE(is_all_to_all({16, 7, 16, 11}));  // example 2: g = 16 <= 7 + 11 - 1
}

TEST(Vol, PiecewiseLinearShape) {
  // r = 3, s = 5: k in [-2, 4] gives 1 2 3 3 3 2 1.
  const std::vector<Index> expected = {0, 1, 2, 3, 3, 3, 2, 1, 0};
  for (Index k = -3; k <= 5; ++k) EXPECT_EQ(vol(k, 3, 5), expected[static_cast<std::size_t>(k + 3)]) << k;
  // Brute force over (x, y) for a few (r, s).
  for (Index r = 1; r <= 9; ++r) {
    for (Index s = 1; s <= 9; ++s) {
      for (Index k = -r - 1; k <= s + 1; ++k) {
        Index count = 0;
        for (Index x = 0; x < r; ++x) count += (x + k >= 0 && x + k < s);
        EXPECT_EQ(vol(k, r, s), count) << r << " " << s << " " << k;
      }
    }
  }
}

// The closed form against the brute-force scan on many random parameter sets, with gcd(r, s) > 1
// and P != Q among them; Lemma 2 and Proposition 5 against the scanned grid too.
TEST(ClosedForm, EqualsBruteForceOnRandomParameters) {
  std::mt19937_64 rng(20261122);
  std::uniform_int_distribution<Index> procs(1, 64), block(1, 40);
  int with_common_factor = 0, with_different_grids = 0, all_to_all = 0;
  const int cases = test::sampled_cases(2000);
  for (int n = 0; n < cases; ++n) {
    const Redistribution redist{procs(rng), block(rng), procs(rng), block(rng)};
    SCOPED_TRACE(testing::Message() << "P=" << redist.P << " r=" << redist.r << " Q=" << redist.Q << " s=" << redist.s);
    const CommGrid scanned = comm_grid_by_scan(redist);
    ASSERT_EQ(comm_grid(redist), scanned);

    bool full = true;
    for (Index v : scanned.lengths()) full = full && v > 0;
    ASSERT_EQ(is_all_to_all(redist), full);
    const auto counts = max_message_counts(redist);
    ASSERT_EQ(counts.max_per_row, scanned.max_messages_sent());
    ASSERT_EQ(counts.max_per_column, scanned.max_messages_received());

    // Every pair of a class exchanges the same amount; classes partition the grid.
    Index total = 0;
    for (Index v : scanned.lengths()) total += v;
    ASSERT_EQ(total, scanned.slice_length());

    with_common_factor += std::gcd(redist.r, redist.s) > 1;
    with_different_grids += redist.P != redist.Q;
    all_to_all += full;
  }
  // The random sample does exercise the cases the closed form distinguishes.
  EXPECT_GT(with_common_factor, cases / 10);
  EXPECT_GT(with_different_grids, cases / 2);
  EXPECT_GT(all_to_all, 10);
  EXPECT_LT(all_to_all, cases - 10);
}

// Classes (Proposition 1) partition the grid into g classes of P·Q/g pairs each.
TEST(Proposition1, ClassesPartitionTheGrid) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<Index> procs(1, 24), block(1, 30);
  for (int n = 0; n < 300; ++n) {
    const Redistribution redist{procs(rng), block(rng), procs(rng), block(rng)};
    const Index g = reduce(redist).g;
    std::vector<int> seen(static_cast<std::size_t>(redist.P * redist.Q), 0);
    for (Index k = 0; k < g; ++k) {
      const auto members = class_members(redist, k);
      ASSERT_EQ(static_cast<Index>(members.size()), redist.P * redist.Q / g);
      for (const auto& [p, q] : members) {
        ASSERT_EQ(class_of(redist, p, q), k);
        ++seen[static_cast<std::size_t>(p * redist.Q + q)];
      }
    }
    for (int v : seen) ASSERT_EQ(v, 1);
  }
}

TEST(ClosedForm, LargeBlocksWithoutScanning) {
  // L = lcm(4·10^9, 3·7·10^9): far too long to scan, the closed form stays O(P·Q).
  const Redistribution redist{4, 1'000'000'000, 3, 7'000'000'000};
  const CommGrid grid = comm_grid(redist);
  Index total = 0;
  for (Index v : grid.lengths()) total += v;
  EXPECT_EQ(total, grid.slice_length());
  EXPECT_THROW(comm_grid_by_scan(redist), std::invalid_argument);
}

TEST(ClosedForm, RejectsBadParameters) {
  EXPECT_THROW(comm_grid({0, 3, 16, 5}), std::invalid_argument);
  EXPECT_THROW(comm_grid({16, -3, 16, 5}), std::invalid_argument);
  EXPECT_THROW(comm_grid({16, 3, 16, 0}), std::invalid_argument);
  EXPECT_THROW(comm_grid({4'000'000'000, 4'000'000'000, 3, 7}), OverflowError);
  EXPECT_THROW(comm_grid({100'000, 1, 100'000, 1}), std::invalid_argument);  // 10^10 cells
}

}  // namespace
}  // namespace redist
