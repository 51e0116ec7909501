// ScaLAPACK's pdgemr2d over the message layer (redist/pdgemr2d/): on random copies (grids of any
// shape on permuted, overlapping or disjoint ranks, ranks in neither grid, block sizes, RSRC/CSRC,
// submatrices at any offset, LLD padding per rank) every element of sub(B) holds its element of
// sub(A) and nothing else of B is written; each rank sends the messages submatrix_plan finds, no
// more; the interval scan equals an element scan; the caterpillar meets every pair of slots once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <random>

#include "redist/pdgemr2d/pdgemr2d_copy.hpp"
#include "redist/pdgemr2d/pdgemr2d_geometry.hpp"
#include "redist/pdgemr2d/pdgemr2d_intervals.hpp"
#include "random_grids.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

using test::pick;
using test::RandomGrid;

RandomGrid random_grid(std::mt19937_64& rng, Rank world) {
  std::vector<Rank> pool(static_cast<std::size_t>(world));
  std::iota(pool.begin(), pool.end(), 0);
  return test::random_grid(rng, pool);
}

StoredMatrix stored(std::mt19937_64& rng, const RandomGrid& g, Index rows, Index cols) {
  return test::random_stored(rng, g, rows, cols, 7);
}

// Elements stored by rank `me`: its local columns times its LLD (none outside the grid).
Index storage_elements(const StoredMatrix& m, Rank me, Index lld) {
  const Index p = m.process_of(me);
  return p < 0 ? 0 : lld * m.cols.local_size(p % m.cols.procs());
}

// Each element of A holds its global position; B starts as a value no element has.
std::int64_t identity(Index row, Index col) { return row * 1000003 + col + 1; }
constexpr std::int64_t kUntouched = -7;

struct Case {
  SubmatrixCopy copy;
  RandomGrid from, to;
  Rank world;
};

Case random_case(std::mt19937_64& rng) {
  const auto world = static_cast<Rank>(pick(rng, 1, 7));
  const RandomGrid from = random_grid(rng, world), to = random_grid(rng, world);
  const Index m = pick(rng, 1, 19), n = pick(rng, 1, 19);
  const Index from_row0 = pick(rng, 0, 9), from_col0 = pick(rng, 0, 9), to_row0 = pick(rng, 0, 9), to_col0 = pick(rng, 0, 9);
  SubmatrixCopy copy{stored(rng, from, from_row0 + m + pick(rng, 0, 5), from_col0 + n + pick(rng, 0, 5)),
                     stored(rng, to, to_row0 + m + pick(rng, 0, 5), to_col0 + n + pick(rng, 0, 5))};
  copy.from_row0 = from_row0, copy.from_col0 = from_col0, copy.to_row0 = to_row0, copy.to_col0 = to_col0;
  copy.rows = m, copy.cols = n;
  return {copy, from, to, world};
}

TEST(Pdgemr2dCopy, MovesEveryElementOfRandomCopiesAndNothingElse) {
  std::mt19937_64 rng(56);
  Index elements_checked = 0, with_outsiders = 0;
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Case c = random_case(rng);
    std::vector<SubmatrixCopy> seen(static_cast<std::size_t>(c.world), c.copy);
    std::vector<std::vector<std::int64_t>> a(seen.size()), b(seen.size());
    for (Rank r = 0; r < c.world; ++r) {
      SubmatrixCopy& mine = seen[static_cast<std::size_t>(r)];
      mine.from.leading_dim = test::padded_leading_dim(mine.from, c.from, r);
      mine.to.leading_dim = test::padded_leading_dim(mine.to, c.to, r);
      a[static_cast<std::size_t>(r)].assign(static_cast<std::size_t>(storage_elements(mine.from, r, mine.from.leading_dim)), kUntouched);
      b[static_cast<std::size_t>(r)].assign(static_cast<std::size_t>(storage_elements(mine.to, r, mine.to.leading_dim)), kUntouched);
      with_outsiders += mine.from.process_of(r) < 0 && mine.to.process_of(r) < 0;
    }
    // Fill A: every element of the matrix at its owner's offset.
    const StoredMatrix& A = c.copy.from;
    for (Index i = 0; i < A.rows.size(); ++i) {
      for (Index j = 0; j < A.cols.size(); ++j) {
        const Rank r = A.grid_ranks[static_cast<std::size_t>(A.rows.owner(i) * A.cols.procs() + A.cols.owner(j))];
        const Index lld = seen[static_cast<std::size_t>(r)].from.leading_dim;
        a[static_cast<std::size_t>(r)][static_cast<std::size_t>(A.rows.local_index(i) + A.cols.local_index(j) * lld)] = identity(i, j);
      }
    }
    std::vector<RedistributeReport> reports(seen.size());
    test::ThreadWorld world(c.world);
    world.run([&](Transport& t) {
      const auto me = static_cast<std::size_t>(t.rank());
      const auto& source = a[me];
      auto& dest = b[me];
      reports[me] = pdgemr2d_copy(t, seen[me], std::as_bytes(std::span(source)), std::as_writable_bytes(std::span(dest)), 8);
    });
    // Every element of B: sub(B)'s from sub(A), the rest untouched.
    const StoredMatrix& B = c.copy.to;
    for (Index i = 0; i < B.rows.size(); ++i) {
      for (Index j = 0; j < B.cols.size(); ++j) {
        const Rank r = B.grid_ranks[static_cast<std::size_t>(B.rows.owner(i) * B.cols.procs() + B.cols.owner(j))];
        const Index lld = seen[static_cast<std::size_t>(r)].to.leading_dim;
        const std::int64_t got = b[static_cast<std::size_t>(r)][static_cast<std::size_t>(B.rows.local_index(i) + B.cols.local_index(j) * lld)];
        const Index si = i - c.copy.to_row0, sj = j - c.copy.to_col0;
        const bool inside = si >= 0 && si < c.copy.rows && sj >= 0 && sj < c.copy.cols;
        ASSERT_EQ(got, inside ? identity(c.copy.from_row0 + si, c.copy.from_col0 + sj) : kUntouched) << i << "," << j;
        elements_checked += inside;
      }
    }
    // Padding rows below each rank's local rows untouched too.
    for (Rank r = 0; r < c.world; ++r) {
      const SubmatrixCopy& mine = seen[static_cast<std::size_t>(r)];
      const Index q = mine.to.process_of(r);
      if (q < 0) continue;
      const Index local_rows = mine.to.rows.local_size(q / mine.to.cols.procs());
      for (Index col = 0; col < mine.to.cols.local_size(q % mine.to.cols.procs()); ++col) {
        for (Index row = local_rows; row < mine.to.leading_dim; ++row) {
          ASSERT_EQ(b[static_cast<std::size_t>(r)][static_cast<std::size_t>(row + col * mine.to.leading_dim)], kUntouched);
        }
      }
    }
    // The messages are submatrix_plan's: one per peer with data, of its size; the part kept as well.
    for (Rank r = 0; r < c.world; ++r) {
      const RankPlan plan = submatrix_plan(seen[static_cast<std::size_t>(r)], r);
      Index messages = 0, bytes = 0, kept = 0;
      for (const PeerPlan& send : plan.sends) {
        if (send.peer == r) {
          kept += send.elements * 8;
        } else {
          ++messages;
          bytes += send.elements * 8;
        }
      }
      const RedistributeReport& report = reports[static_cast<std::size_t>(r)];
      EXPECT_EQ(report.messages_sent, messages) << "rank " << r;
      EXPECT_EQ(report.bytes_sent, bytes) << "rank " << r;
      EXPECT_EQ(report.bytes_kept, kept) << "rank " << r;
    }
  }
  EXPECT_GT(elements_checked, 10000);
  EXPECT_GT(with_outsiders, 20);  // ranks in neither grid take part in the parameter exchange only
}

// Each step of pdgemr2d's loop pairs slots that add up to steps − 1 − step: every slot meets every
// slot once, and the slot it meets meets it at the same step.
TEST(Pdgemr2dCopy, TheCaterpillarMeetsEveryPairOnceAndSymmetrically) {
  for (Index steps = 1; steps <= 17; ++steps) {
    for (Index slot = 0; slot < steps; ++slot) {
      std::vector<int> met(static_cast<std::size_t>(steps), 0);
      for (Index step = 0; step < steps; ++step) {
        const Index partner = pdgemr2d_partner(steps, slot, step);
        ASSERT_GE(partner, 0);
        ASSERT_LT(partner, steps);
        EXPECT_EQ(pdgemr2d_partner(steps, partner, step), slot);
        ++met[static_cast<std::size_t>(partner)];
      }
      for (const int m : met) EXPECT_EQ(m, 1);
      EXPECT_EQ(pdgemr2d_partner(steps, slot, 0), steps - 1 - slot);  // pdgemr.c starts at steps − 1 − slot
    }
  }
}

// The interval scan against a scan of every index: the maximal stretches of the submatrix that
// both processes hold, at this process's local indices (counted from the start of the block the
// submatrix starts in); and one Intersection per block passed.
TEST(Pdgemr2dCopy, IntervalScanEqualsAnElementScan) {
  std::mt19937_64 rng(5656);
  for (int trial = 0; trial < 3000; ++trial) {
    const Index extent = pick(rng, 1, 60);
    Pdgemr2dDimension own{pick(rng, 1, 9), pick(rng, 1, 5), 0, 0, extent};
    Pdgemr2dDimension peer{pick(rng, 1, 9), pick(rng, 1, 5), 0, 0, extent};
    own.first = pick(rng, 0, own.procs - 1), peer.first = pick(rng, 0, peer.procs - 1);
    own.offset = pick(rng, 0, own.block - 1), peer.offset = pick(rng, 0, peer.block - 1);
    // A grid dimension of one process is one block (pdgemr2d_geometry, as pdgemr.c sets it).
    for (Pdgemr2dDimension* d : {&own, &peer}) {
      if (d->procs == 1) d->block = d->offset + extent;
    }
    const Index own_coord = pick(rng, 0, own.procs - 1), peer_coord = pick(rng, 0, peer.procs - 1);
    const BlockCyclic a(own.offset + extent, own.block, own.procs, own.first);
    const BlockCyclic b(peer.offset + extent, peer.block, peer.procs, peer.first);
    std::vector<Pdgemr2dInterval> expected;
    for (Index k = 0; k < extent; ++k) {
      if (a.owner(own.offset + k) != own_coord || b.owner(peer.offset + k) != peer_coord) continue;
      const Index local = a.local_index(own.offset + k);  // counted from the first block's first index
      const bool follows = k > 0 && a.owner(own.offset + k - 1) == own_coord && b.owner(peer.offset + k - 1) == peer_coord;
      if (follows) {
        ++expected.back().length;
      } else {
        expected.push_back({local, 1});
      }
    }
    Work work;
    const auto got = pdgemr2d_scan(own, own_coord, peer, peer_coord, work);
    ASSERT_EQ(got.size(), expected.size()) << "trial " << trial;
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].local, expected[k].local) << "trial " << trial;
      EXPECT_EQ(got[k].length, expected[k].length) << "trial " << trial;
    }
    // pdgemr2d passes blocks one at a time: at least one step per interval, at most one per block of either side.
    const Index blocks = (own.offset + extent + own.block - 1) / own.block + (peer.offset + extent + peer.block - 1) / peer.block;
    EXPECT_GE(work.count(WorkKind::Intersection), static_cast<Index>(got.size()));
    EXPECT_LE(work.count(WorkKind::Intersection), blocks);
  }
}

TEST(Pdgemr2dCopy, RefusesWhatPdgemr2dDoesNotDo) {
  const StoredMatrix a{BlockCyclic(10, 2, 1), BlockCyclic(8, 3, 1), 10, {0}};
  SubmatrixCopy copy{a, a};
  copy.rows = 4, copy.cols = 4;
  copy.part = MatrixPart::Upper;
  EXPECT_THROW(check_pdgemr2d_copy(copy, 0), std::invalid_argument);
  copy.part = MatrixPart::All;
  copy.transpose = true;
  EXPECT_THROW(check_pdgemr2d_copy(copy, 0), std::invalid_argument);
  copy.transpose = false;
  copy.rows = 11;
  EXPECT_THROW(check_pdgemr2d_copy(copy, 0), std::invalid_argument);
  copy.rows = 4;
  EXPECT_NO_THROW(check_pdgemr2d_copy(copy, 0));
  // Grid ranks beyond the transport's are refused before anything moves.
  copy.to.grid_ranks = {1};
  test::ThreadWorld world(1);
  std::vector<std::int64_t> storage(80);
  EXPECT_THROW(world.run([&](Transport& t) {
    pdgemr2d_copy(t, copy, std::as_bytes(std::span(storage)), std::as_writable_bytes(std::span(storage)), 8);
  }), std::invalid_argument);
}

}  // namespace
}  // namespace redist
