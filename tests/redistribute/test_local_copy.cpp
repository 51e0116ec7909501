// The local part copied once (copy_local) must equal packing it and unpacking it, on the plans of
// every indexing method for random 1-D and 2-D layout pairs, and on hand-made run lists mixing
// strided and contiguous pieces.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <vector>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/layout/multi_dim.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist {
namespace {

std::vector<std::byte> numbered(Index elements, Index elem_bytes, std::uint32_t salt) {
  std::vector<std::byte> bytes(static_cast<std::size_t>(elements * elem_bytes));
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>((i * 131 + salt) % 251);
  return bytes;
}

// copy_local against pack + unpack, both onto the same prior contents of destination storage.
void expect_same_as_pack_unpack(const PeerPlan& send, const PeerPlan& receive, Index source_elements,
                                Index dest_elements, Index elem_bytes) {
  const auto source = numbered(source_elements, elem_bytes, 7);
  auto by_message = numbered(dest_elements, elem_bytes, 3), direct = by_message;
  std::vector<std::byte> message(static_cast<std::size_t>(send.elements * elem_bytes));
  pack(send, source, elem_bytes, message.data());
  unpack(receive, message.data(), elem_bytes, by_message);
  copy_local(send, receive, source, direct, elem_bytes);
  EXPECT_EQ(direct, by_message);
}

const PeerPlan* find(const std::vector<PeerPlan>& peers, Rank rank) {
  for (const auto& p : peers) {
    if (p.peer == rank) return &p;
  }
  return nullptr;
}

Layout random_layout(std::mt19937_64& rng, bool two_d, Index rows, Index cols) {
  std::uniform_int_distribution<Index> block(1, 9), grid(1, 4);
  if (!two_d) return BlockCyclic(rows * cols, block(rng), grid(rng));
  return MultiDimLayout({DimMapping::distributed(BlockCyclic(rows, block(rng), grid(rng))),
                         DimMapping::distributed(BlockCyclic(cols, block(rng), grid(rng)))},
                        StorageOrder::ColumnMajor);
}

TEST(LocalCopy, EqualsPackThenUnpackOnEveryMethodsPlansForRandomLayouts) {
  std::mt19937_64 rng(20261125);
  int checked = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const bool two_d = trial % 2 == 1;
    std::uniform_int_distribution<Index> extent(1, 60);
    const Index rows = extent(rng), cols = extent(rng);
    const Layout source = random_layout(rng, two_d, rows, cols), dest = random_layout(rng, two_d, rows, cols);
    const Index elem_bytes = trial % 3 == 0 ? 4 : 8;
    const Rank ranks = static_cast<Rank>(std::max(source.processors(), dest.processors()));
    for (const IndexingMethod& method : indexing_methods()) {
      if (!method_takes(method, source, dest)) continue;
      for (Rank me = 0; me < ranks; ++me) {
        Work work;
        const RankPlan plan = make_plan(method, source, dest, RankMap::shared(), me, true, work);
        const PeerPlan* send = find(plan.sends, me);
        const PeerPlan* receive = find(plan.receives, me);
        ASSERT_EQ(send == nullptr, receive == nullptr) << method.name;
        if (send == nullptr) continue;
        expect_same_as_pack_unpack(*send, *receive, source.local_size(me), dest.local_size(me), elem_bytes);
        // The rank-plan form finds the same two plans.
        const auto from = numbered(source.local_size(me), elem_bytes, 7);
        auto by_pair = numbered(dest.local_size(me), elem_bytes, 3), by_rank = by_pair;
        copy_local(*send, *receive, from, by_pair, elem_bytes);
        copy_local(plan, me, from, by_rank, elem_bytes);
        EXPECT_EQ(by_rank, by_pair);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
}

// The local part copied within the pack sweep or the unpack sweep (message_packing.hpp) must leave
// the messages and destination storage exactly as packing, unpacking and copy_local apart do.
void expect_sweeps_same_as_apart(const RankPlan& plan, Rank me, Index source_elements, Index dest_elements,
                                 Index elem_bytes) {
  const LocalPart local = local_part(plan, me);
  const auto source = numbered(source_elements, elem_bytes, 7);
  std::vector<const PeerPlan*> sends, receives;
  std::vector<std::vector<std::byte>> apart, swept, incoming;
  for (const PeerPlan& to : plan.sends) {
    if (to.peer == me) continue;
    sends.push_back(&to);
    apart.emplace_back(static_cast<std::size_t>(to.elements * elem_bytes));
    pack(to, source, elem_bytes, apart.back().data());
  }
  for (const PeerPlan& from : plan.receives) {
    if (from.peer == me) continue;
    receives.push_back(&from);
    incoming.push_back(numbered(from.elements, elem_bytes, static_cast<std::uint32_t>(from.peer) + 11));
  }
  auto expected = numbered(dest_elements, elem_bytes, 3);
  for (std::size_t k = 0; k < receives.size(); ++k) unpack(*receives[k], incoming[k].data(), elem_bytes, expected);
  if (!local.empty()) copy_local(*local.send, *local.receive, source, expected, elem_bytes);
  if (local.empty()) return;

  // Pack sweep with the local part, then the messages unpacked apart.
  swept.assign(apart.size(), {});
  std::vector<std::byte*> buffers;
  for (std::size_t k = 0; k < apart.size(); ++k) {
    swept[k].assign(apart[k].size(), std::byte{0});
    buffers.push_back(swept[k].data());
  }
  auto dest = numbered(dest_elements, elem_bytes, 3);
  pack_messages(sends, source, elem_bytes, buffers, *local.send, *local.receive, dest);
  EXPECT_EQ(swept, apart);
  for (std::size_t k = 0; k < receives.size(); ++k) unpack(*receives[k], incoming[k].data(), elem_bytes, dest);
  EXPECT_EQ(dest, expected);

  // Unpack sweep with the local part.
  std::vector<const std::byte*> data;
  for (const auto& message : incoming) data.push_back(message.data());
  dest = numbered(dest_elements, elem_bytes, 3);
  const DirectCopy local_copy{local.receive, local.send->runs, source.data()};
  unpack_and_copy(receives, data, {&local_copy, 1}, elem_bytes, dest);
  EXPECT_EQ(dest, expected);
}

TEST(LocalPartInASweep, EqualsPackUnpackAndCopyApartOnEveryMethodsPlansForRandomLayouts) {
  std::mt19937_64 rng(20261126);
  int checked = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const bool two_d = trial % 2 == 1;
    // Up to 200 x 200 in 2-D: local storage spans several 32 KiB sweep windows.
    std::uniform_int_distribution<Index> extent(1, two_d ? 200 : 3000);
    const Index rows = extent(rng), cols = two_d ? extent(rng) : 1;
    const Layout source = random_layout(rng, two_d, rows, cols), dest = random_layout(rng, two_d, rows, cols);
    const Index elem_bytes = trial % 3 == 0 ? 4 : 8;
    const Rank ranks = static_cast<Rank>(std::max(source.processors(), dest.processors()));
    for (const IndexingMethod& method : indexing_methods()) {
      if (!method_takes(method, source, dest)) continue;
      for (Rank me = 0; me < ranks; ++me) {
        Work work;
        const RankPlan plan = make_plan(method, source, dest, RankMap::shared(), me, true, work);
        expect_sweeps_same_as_apart(plan, me, me < source.processors() ? source.local_size(me) : 0,
                                    me < dest.processors() ? dest.local_size(me) : 0, elem_bytes);
        checked += local_part(plan, me).empty() ? 0 : 1;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

// Rows dealt in blocks of 5 to 4 ranks from columns held whole: in source storage every 20-row
// line holds a piece for each rank, the local part's among them, so the pack sweep moves the
// messages and the local part together, line by line (1x4 3x5 -> 4x1 5x3 at 1280 x 24: 64 lines a column).
TEST(LocalPartInASweep, JoinsTheMessagesInInterleavedLines) {
  const auto grid = [](Index rows, Index row_block, Index pr, Index cols, Index col_block, Index pc) {
    return Layout(MultiDimLayout({DimMapping::distributed(BlockCyclic(rows, row_block, pr)),
                                  DimMapping::distributed(BlockCyclic(cols, col_block, pc))},
                                 StorageOrder::ColumnMajor));
  };
  const Layout source = grid(1280, 3, 1, 24, 5, 4), dest = grid(1280, 5, 4, 24, 3, 1);
  int in_pack = 0;
  for (const IndexingMethod& method : indexing_methods()) {
    if (!method_takes(method, source, dest)) continue;
    for (Rank me = 0; me < 4; ++me) {
      Work work;
      const RankPlan plan = make_plan(method, source, dest, RankMap::shared(), me, true, work);
      const LocalPart local = local_part(plan, me);
      ASSERT_FALSE(local.empty());
      in_pack += local_part_in_unpack(*local.send, *local.receive, 8) ? 0 : 1;  // the table and interval methods
      for (const Index elem_bytes : {Index{4}, Index{8}}) {
        expect_sweeps_same_as_apart(plan, me, source.local_size(me), dest.local_size(me), elem_bytes);
      }
    }
  }
  EXPECT_GE(in_pack, 8);
}

TEST(LocalPartInASweep, RefusesLocalPlansOfDifferentSizes) {
  const PeerPlan send{0, 3, 1, {{0, 3}}, 0}, receive{0, 2, 1, {{0, 2}}, 0};
  std::vector<std::byte> source(24), dest(16);
  std::vector<const PeerPlan*> none;
  EXPECT_THROW(pack_messages(none, source, 8, {}, send, receive, dest), std::invalid_argument);
  EXPECT_THROW(check_local_part(send, receive), std::invalid_argument);  // as the unpack sweep's caller checks
}

TEST(LocalCopy, StridedAndContiguousPiecesMeetAtAnyOffset) {
  // 24 elements each side: strided runs against long pieces, equal strided runs, runs cut mid-piece.
  const PeerPlan send{0, 24, 0, {{0, 6}, {10, 2, 4, 5}, {40, 1, 6, 3}, {70, 4}}, 0};
  const PeerPlan receive{0, 24, 0, {{100, 1, 5, 2}, {120, 2, 4, 5}, {150, 11}}, 0};
  expect_same_as_pack_unpack(send, receive, 80, 170, 8);
  expect_same_as_pack_unpack(receive, send, 170, 80, 4);
}

TEST(LocalCopy, PiecesHoldingWholeGroupsOfTheOtherSidesPiecesAreCopiedInGroups) {
  // A piece of 4 (or 6) elements on one side is 2 (or 3) pieces on the other, with groups cut off
  // by the end of a run; piece sizes of 8-64 bytes (the fixed-size kernels) and others.
  const PeerPlan whole{0, 24, 0, {{0, 4, 6, 10}}, 0};
  const PeerPlan split{0, 24, 0, {{100, 2, 12, 3}}, 0};
  const PeerPlan mixed{0, 36, 0, {{0, 6, 5, 8}, {50, 6}}, 0};
  const PeerPlan thirds{0, 36, 0, {{200, 2, 7, 3}, {230, 2, 2, 5}, {260, 3, 4, 4}, {300, 6}}, 0};
  for (const Index elem_bytes : {Index{1}, Index{3}, Index{4}, Index{8}, Index{16}}) {
    expect_same_as_pack_unpack(whole, split, 60, 140, elem_bytes);
    expect_same_as_pack_unpack(split, whole, 140, 60, elem_bytes);
    expect_same_as_pack_unpack(mixed, thirds, 60, 310, elem_bytes);
    expect_same_as_pack_unpack(thirds, mixed, 310, 60, elem_bytes);
  }
}

TEST(LocalCopy, PiecesOffsetByPartOfAPieceAreCopiedInTwoParts) {
  // Pieces of one length on both sides, one side's pieces starting inside the other's (as the local
  // part of CYCLIC(r) to CYCLIC(s) runs): each piece is cut in two, with runs ending mid-way, the
  // strides unequal, and pieces of 1-3 elements of 1-16 bytes.
  const PeerPlan even{0, 20, 0, {{0, 2, 10, 3}}, 0};
  const PeerPlan offset{0, 20, 0, {{100, 1}, {102, 2, 9, 5}, {150, 1}}, 0};
  const PeerPlan threes{0, 30, 0, {{0, 3, 6, 4}, {30, 3, 4, 7}}, 0};
  const PeerPlan cut{0, 30, 0, {{200, 2}, {205, 3, 5, 3}, {230, 3, 4, 6}, {260, 1}}, 0};
  for (const Index elem_bytes : {Index{1}, Index{4}, Index{8}, Index{16}}) {
    expect_same_as_pack_unpack(even, offset, 40, 160, elem_bytes);
    expect_same_as_pack_unpack(offset, even, 160, 40, elem_bytes);
    expect_same_as_pack_unpack(threes, cut, 70, 270, elem_bytes);
    expect_same_as_pack_unpack(cut, threes, 270, 70, elem_bytes);
  }
}

// The sweep that takes the local part: the finer side's, unless that is the destination, its pieces
// are shorter than a cache line and the source's hold too few of them to move interleaved lines
// (kFewestInterleavedLines) with the messages.
TEST(LocalPartInASweep, GoesWithTheUnpackingOnlyWhereItKeepsTheLinesWhole) {
  // 4096 elements: `length`-element pieces, as many as that takes.
  const auto plan = [](Index length) { return PeerPlan{0, 4096, 4096 / length, {}, 0}; };
  EXPECT_FALSE(local_part_in_unpack(plan(2), plan(4), 8));     // the source is finer
  EXPECT_TRUE(local_part_in_unpack(plan(32), plan(16), 8));    // 128-byte destination pieces
  EXPECT_FALSE(local_part_in_unpack(plan(4), plan(2), 8));     // 16-byte pieces, 2 per source piece
  EXPECT_FALSE(local_part_in_unpack(plan(32), plan(1), 8));    // 32 lines at a time: not more
  EXPECT_TRUE(local_part_in_unpack(plan(64), plan(1), 8));     // 64 lines at a time
  EXPECT_TRUE(local_part_in_unpack(plan(4), plan(2), 32));     // 64-byte destination pieces
  EXPECT_TRUE(local_part_in_unpack(plan(8), plan(8), 8));      // alike, 64-byte pieces
  EXPECT_FALSE(local_part_in_unpack(plan(1), plan(1), 8));     // alike, 8-byte pieces
}

TEST(LocalCopy, RefusesPlansOfDifferentSizes) {
  const PeerPlan send{0, 3, 1, {{0, 3}}, 0}, receive{0, 2, 1, {{0, 2}}, 0};
  std::vector<std::byte> source(24), dest(16);
  EXPECT_THROW(copy_local(send, receive, source, dest, 8), std::invalid_argument);
}

}  // namespace
}  // namespace redist
