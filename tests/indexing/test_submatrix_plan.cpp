// Submatrix indexing (redist/indexing/submatrix_plan.hpp), against an element-by-element scan: on
// random ScaLAPACK copies (submatrices at any offset, LLD padding that differs per rank, permuted
// and disjoint process maps, trapezoids with either diagonal, transposes), every rank's messages
// hold exactly the scan's elements, in the same order on both sides, at the scan's local offsets;
// and applying the plans moves every element and writes nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include "random_grids.hpp"
#include "redist/indexing/submatrix_plan.hpp"

namespace redist {
namespace {

using test::pick;
using test::random_grid;
using test::RandomGrid;

StoredMatrix stored(std::mt19937_64& rng, const RandomGrid& g, Index rows, Index cols) {
  return test::random_stored(rng, g, rows, cols, 6);
}

// The copy as rank `me` passes it: its own leading dimensions.
SubmatrixCopy as_seen_by(SubmatrixCopy copy, const RandomGrid& from, const RandomGrid& to, Rank me) {
  copy.from.leading_dim = test::padded_leading_dim(copy.from, from, me);
  copy.to.leading_dim = test::padded_leading_dim(copy.to, to, me);
  return copy;
}

struct Where {
  Rank rank;
  Index offset;
};

// Where element (row, col) of `m` lives: its rank and its offset there (that rank's LLD).
Where place(const StoredMatrix& m, Index row, Index col, const std::map<Rank, Index>& lld) {
  const Index pr = m.rows.owner(row), pc = m.cols.owner(col);
  const Rank rank = m.grid_ranks[static_cast<std::size_t>(pr * m.cols.procs() + pc)];
  return {rank, m.rows.local_index(row) + m.cols.local_index(col) * lld.at(rank)};
}

bool copied(const SubmatrixCopy& c, Index i, Index j) {
  const Index d = c.unit_diagonal ? 1 : 0;
  if (c.part == MatrixPart::Upper) return j - i >= std::min<Index>(0, c.cols - c.rows) + d;
  if (c.part == MatrixPart::Lower) return i - j >= std::min<Index>(0, c.rows - c.cols) + d;
  return true;
}

TEST(SubmatrixPlan, EqualsAnElementScanOnRandomCopies) {
  std::mt19937_64 rng(22);
  std::vector<Rank> everyone(7);
  std::iota(everyone.begin(), everyone.end(), 0);
  Index elements_checked = 0, transposed_checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const RandomGrid from_grid = random_grid(rng, everyone), to_grid = random_grid(rng, everyone);
    const bool transpose = rng() % 4 == 0;
    const Index m = pick(rng, 0, 17), n = pick(rng, 0, 17);
    const Index from_row0 = pick(rng, 0, 9), from_col0 = pick(rng, 0, 9);
    const Index to_row0 = pick(rng, 0, 9), to_col0 = pick(rng, 0, 9);
    const Index to_rows = transpose ? n : m, to_cols = transpose ? m : n;
    SubmatrixCopy copy{stored(rng, from_grid, from_row0 + m + pick(rng, 1, 5), from_col0 + n + pick(rng, 1, 5)),
                       stored(rng, to_grid, to_row0 + to_rows + pick(rng, 1, 5), to_col0 + to_cols + pick(rng, 1, 5)),
                       from_row0, from_col0, to_row0, to_col0, m, n};
    copy.transpose = transpose;
    copy.part = static_cast<MatrixPart>(pick(rng, 0, 2));
    copy.unit_diagonal = rng() % 2 == 0;

    std::map<Rank, Index> from_lld, to_lld;
    for (const Rank r : everyone) {
      const SubmatrixCopy seen = as_seen_by(copy, from_grid, to_grid, r);
      ASSERT_EQ(submatrix_copy_problem(seen, r), "");
      from_lld[r] = seen.from.leading_dim;
      to_lld[r] = seen.to.leading_dim;
    }
    // The scan: per (sender, receiver), the (source offset, destination offset) of each element.
    std::map<std::pair<Rank, Rank>, std::vector<std::pair<Index, Index>>> expected;
    for (Index j = 0; j < copy.cols; ++j) {
      for (Index i = 0; i < copy.rows; ++i) {
        if (!copied(copy, i, j)) continue;
        const Where s = place(copy.from, copy.from_row0 + i, copy.from_col0 + j, from_lld);
        const Where d = copy.transpose ? place(copy.to, copy.to_row0 + j, copy.to_col0 + i, to_lld)
                                       : place(copy.to, copy.to_row0 + i, copy.to_col0 + j, to_lld);
        expected[{s.rank, d.rank}].emplace_back(s.offset, d.offset);
        ++elements_checked;
        transposed_checked += copy.transpose ? 1 : 0;
      }
    }
    std::map<std::pair<Rank, Rank>, std::vector<Index>> sent, received;
    for (const Rank r : everyone) {
      const RankPlan plan = submatrix_plan(as_seen_by(copy, from_grid, to_grid, r), r);
      for (const auto* peers : {&plan.sends, &plan.receives}) {
        for (std::size_t k = 0; k < peers->size(); ++k) {
          const PeerPlan& p = (*peers)[k];
          EXPECT_GT(p.elements, 0);
          if (k > 0) {
            EXPECT_LT((*peers)[k - 1].peer, p.peer);
          }
          EXPECT_EQ(static_cast<Index>(local_offsets(p).size()), p.elements);
          EXPECT_EQ(p.run_count, piece_count(p.runs));
        }
      }
      for (const PeerPlan& p : plan.sends) sent[{r, p.peer}] = local_offsets(p);
      for (const PeerPlan& p : plan.receives) received[{p.peer, r}] = local_offsets(p);
    }
    ASSERT_EQ(sent.size(), expected.size());
    ASSERT_EQ(received.size(), expected.size());
    for (const auto& [pair, elements] : expected) {
      std::vector<Index> from_offsets, to_offsets;
      for (const auto& [s, d] : elements) {
        from_offsets.push_back(s);
        to_offsets.push_back(d);
      }
      EXPECT_EQ(sent[pair], from_offsets) << pair.first << " -> " << pair.second;
      EXPECT_EQ(received[pair], to_offsets) << pair.first << " -> " << pair.second;
    }
  }
  EXPECT_GT(elements_checked, 10000);  // the random sizes are not all tiny
  EXPECT_GT(transposed_checked, 1000);
}

// What building a plan counts: its interval scans, and one offset computed a piece where a column's
// rows lie together in the rank's storage, one an element where they do not (a transposed copy's
// receiver). A 12 x 5 matrix on rank 0 alone to three ranks in blocks of one row: rank 0 sends each
// rank 4 rows a column, apart in its storage (20 pieces a rank), and each rank receives its 4 rows
// of a column together (5 pieces).
TEST(SubmatrixPlan, CountsItsScansAndTheOffsetsItsLoopComputes) {
  const StoredMatrix whole{BlockCyclic(12, 12, 1), BlockCyclic(5, 5, 1), 12, {0}};
  const StoredMatrix rows_dealt{BlockCyclic(12, 1, 3), BlockCyclic(5, 5, 1), 4, {0, 1, 2}};
  const SubmatrixCopy dealt{whole, rows_dealt, 0, 0, 0, 0, 12, 5};
  for (Rank me = 0; me < 3; ++me) {
    Work counted;
    const RankPlan plan = submatrix_plan(dealt, me, &counted);
    EXPECT_EQ(counted.count(WorkKind::Intersection), 12 + 1) << me;  // 12 row segments of one row, 1 of columns
    EXPECT_EQ(counted.count(WorkKind::IndexOp), (me == 0 ? 3 * 20 : 0) + 5) << me;
    EXPECT_EQ(plan.receives.size(), 1u);
  }
  // Rank 1's five pieces follow one another in its storage (LLD 4): one run listed, five offsets computed.
  EXPECT_EQ(listing_work(submatrix_plan(dealt, 1)).count(WorkKind::RunListed), 1);

  const StoredMatrix transposed{BlockCyclic(5, 5, 1), BlockCyclic(12, 12, 1), 5, {0}};
  SubmatrixCopy turned{whole, transposed, 0, 0, 0, 0, 12, 5};
  turned.transpose = true;
  Work counted;
  const RankPlan plan = submatrix_plan(turned, 0, &counted);
  EXPECT_EQ(counted.count(WorkKind::Intersection), 2);
  EXPECT_EQ(counted.count(WorkKind::IndexOp), 5 + 60);  // a column each sent, an element each received
  ASSERT_EQ(plan.sends.size(), 1u);
  EXPECT_EQ(plan.sends[0].elements, 60);
}

TEST(SubmatrixPlan, NamesWhatIsWrong) {
  const StoredMatrix a{BlockCyclic(10, 2, 2), BlockCyclic(8, 3, 2), 6, {0, 1, 2, 3}};
  SubmatrixCopy copy{a, a, 0, 0, 0, 0, 4, 4};
  EXPECT_EQ(submatrix_copy_problem(copy, 0), "");
  copy.rows = -1;
  EXPECT_NE(submatrix_copy_problem(copy, 0).find("negative submatrix size"), std::string::npos);
  copy.rows = 4;
  copy.from_row0 = 7;
  EXPECT_EQ(submatrix_copy_problem(copy, 0), "source: rows 8 to 11 of a matrix of 10");
  copy.from_row0 = 0;
  copy.to_col0 = 5;
  EXPECT_EQ(submatrix_copy_problem(copy, 0), "destination: columns 6 to 9 of a matrix of 8");
  copy.to_col0 = 0;
  copy.from.leading_dim = 4;  // rank 0 holds 6 of the 10 rows
  EXPECT_EQ(submatrix_copy_problem(copy, 0), "source: leading dimension 4 below the 6 local rows of rank 0");
  EXPECT_EQ(submatrix_copy_problem(copy, 9), "");  // a rank outside both grids has no storage to check
  copy.from.leading_dim = 6;
  copy.to.grid_ranks = {0, 1, 2, 2};
  EXPECT_EQ(submatrix_copy_problem(copy, 0), "destination: rank 2 is in the grid twice");
  copy.to.grid_ranks = {0, 1, 2};
  EXPECT_EQ(submatrix_copy_problem(copy, 0), "destination: 3 ranks given for a 2 x 2 process grid");
}

}  // namespace
}  // namespace redist
