// Strided run lists (append_piece): the pieces of a message, whether they come element by element
// (the owner scan) or whole (the table methods), give the same runs; the runs cover exactly the
// pieces in order; a regular pattern is one record.
#include <gtest/gtest.h>

#include <random>

#include "redist/indexing/rank_plan.hpp"

namespace redist {
namespace {

struct Piece {
  Index start, length;
};

// Random pieces in increasing order with gaps of 0 (touching) or more; lengths and gaps drawn
// from small sets so that regular stretches are common.
std::vector<Piece> random_pieces(std::mt19937_64& rng) {
  std::uniform_int_distribution<Index> count(1, 40), length(1, 3), gap(0, 3);
  std::vector<Piece> pieces;
  Index at = gap(rng);
  for (Index k = count(rng); k > 0; --k) {
    const Index n = length(rng);
    pieces.push_back({at, n});
    at += n + gap(rng);
  }
  return pieces;
}

std::vector<Index> offsets_of(const std::vector<Piece>& pieces) {
  std::vector<Index> out;
  for (const Piece& p : pieces) {
    for (Index l = p.start; l < p.start + p.length; ++l) out.push_back(l);
  }
  return out;
}

TEST(PlanRuns, ElementByElementEqualsWholePiecesAndCoversThemInOrder) {
  std::mt19937_64 rng(17);
  for (int k = 0; k < 3000; ++k) {
    const std::vector<Piece> pieces = random_pieces(rng);
    PeerPlan whole, single;
    for (const Piece& p : pieces) append_piece(whole.runs, p.start, p.length);
    for (const Index l : offsets_of(pieces)) append_piece(single.runs, l, 1);
    ASSERT_EQ(whole.runs, single.runs) << "case " << k;
    EXPECT_EQ(local_offsets(whole), offsets_of(pieces)) << "case " << k;
    // Counted pieces are the maximal contiguous stretches; strided runs never touch themselves.
    Index stretches = 0;
    const std::vector<Index> offsets = offsets_of(pieces);
    for (std::size_t i = 0; i < offsets.size(); ++i) stretches += i == 0 || offsets[i] != offsets[i - 1] + 1;
    EXPECT_EQ(piece_count(whole.runs), stretches) << "case " << k;
    for (const redist::Run& run : whole.runs) {
      EXPECT_TRUE(run.count > 1 ? run.stride > run.length : run.stride == 0) << "case " << k;
    }
  }
}

TEST(PlanRuns, RegularPatternIsOneRecordAndAGrowingLastPieceLeavesIt) {
  redist::RunList runs;
  for (Index c = 0; c < 1000; ++c) append_piece(runs, 7 + 40 * c, 8);
  ASSERT_EQ(runs, (redist::RunList{{7, 8, 1000, 40}}));
  append_piece(runs, 7 + 40 * 999 + 8, 2);  // the last piece grows to 10 elements
  EXPECT_EQ(runs, (redist::RunList{{7, 8, 999, 40}, {7 + 40 * 999, 10}}));
}

}  // namespace
}  // namespace redist
