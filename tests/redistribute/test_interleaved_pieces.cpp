// Messages whose pieces interleave in local storage (each line holds one piece of each, as a
// 1x1-block layout receives a column from several ranks) are moved line by line in the window
// sweeps (interleaved_pieces.hpp). The sweeps must leave storage and messages exactly as packing
// and unpacking each message on its own does: equal and unequal piece lengths, element sizes with
// and without a fixed-size kernel, groups cut by window ends and by run ends, lines that only some
// messages fill, and a direct copy whose source pieces are too short to be one stream.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <vector>

#include "redist/redistribute/interleaved_pieces.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/redistribute/streaming_copy.hpp"

namespace redist {
namespace {

std::vector<std::byte> numbered(Index bytes, std::uint32_t salt) {
  std::vector<std::byte> out(static_cast<std::size_t>(bytes));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::byte>((i * 131 + salt) % 251);
  return out;
}

PeerPlan plan_of(Rank peer, RunList runs) {
  PeerPlan plan{peer, 0, 0, std::move(runs), 0};
  for (const Run& run : plan.runs) {
    plan.elements += run.length * run.count;
    plan.run_count += run.count;
  }
  return plan;
}

// `lengths.size()` messages tiling lines of sum(lengths) elements: message m holds, in each of
// `lines` lines, the piece at offset sum(lengths[0..m)). Every `cut` lines a message's run ends and
// the next one starts (a new column). When `skip_last` is set the last message leaves every other
// line's piece out (those lines are not whole groups).
std::vector<PeerPlan> interleaved_plans(const std::vector<Index>& lengths, Index lines, Index cut, bool skip_last) {
  Index stride = 0;
  for (Index l : lengths) stride += l;
  std::vector<PeerPlan> plans;
  Index offset = 0;
  for (std::size_t m = 0; m < lengths.size(); ++m) {
    RunList runs;
    const bool skipping = skip_last && m + 1 == lengths.size();
    for (Index first = 0; first < lines; first += cut) {
      const Index count = std::min(cut, lines - first);
      if (skipping) {
        for (Index c = first; c < first + count; c += 2) runs.push_back({offset + c * stride, lengths[m], 1, 0});
      } else {
        runs.push_back({offset + first * stride, lengths[m], count, stride});
      }
    }
    plans.push_back(plan_of(static_cast<Rank>(m), std::move(runs)));
    offset += lengths[m];
  }
  return plans;
}

struct Shape {
  std::vector<Index> lengths;
  Index lines;
  Index cut;
  bool skip_last;
  Index elem_bytes;
};

std::vector<Shape> shapes() {
  std::vector<Shape> out;
  std::mt19937_64 rng(20261127);
  std::uniform_int_distribution<Index> streams(2, 6), length(1, 3), lines(1, 9000), elem(0, 4);
  const Index sizes[] = {1, 3, 4, 8, 16};
  for (int t = 0; t < 60; ++t) {
    Shape s;
    const Index k = t < 4 ? 4 : streams(rng);
    for (Index m = 0; m < k; ++m) s.lengths.push_back(t % 3 == 0 ? 1 : length(rng));
    s.lines = lines(rng);
    s.cut = t % 4 == 1 ? std::max<Index>(1, s.lines / 3) : s.lines;
    s.skip_last = t % 5 == 2;
    s.elem_bytes = t < 4 ? 8 : sizes[elem(rng)];
    out.push_back(s);
  }
  return out;
}

// Local elements the plans reach into.
Index extent(const std::vector<PeerPlan>& plans) {
  Index elements = 0;
  for (const PeerPlan& p : plans) {
    const Run& r = p.runs.back();
    elements = std::max(elements, r.local_start + (r.count - 1) * r.stride + r.length);
  }
  return elements;
}

std::vector<const PeerPlan*> addresses(const std::vector<PeerPlan>& plans) {
  std::vector<const PeerPlan*> out;
  for (const PeerPlan& p : plans) out.push_back(&p);
  return out;
}

TEST(InterleavedPieces, UnpackingTogetherEqualsUnpackingEachMessage) {
  for (const Shape& s : shapes()) {
    const std::vector<PeerPlan> plans = interleaved_plans(s.lengths, s.lines, s.cut, s.skip_last);
    const Index local_elements = extent(plans);
    std::vector<std::vector<std::byte>> messages;
    std::vector<const std::byte*> data;
    for (const PeerPlan& p : plans) messages.push_back(numbered(p.elements * s.elem_bytes, static_cast<std::uint32_t>(p.peer) + 5));
    for (const auto& m : messages) data.push_back(m.data());
    auto expected = numbered(local_elements * s.elem_bytes, 3), together = expected;
    for (std::size_t k = 0; k < plans.size(); ++k) unpack(plans[k], data[k], s.elem_bytes, expected);
    unpack_messages(addresses(plans), data, s.elem_bytes, together);
    ASSERT_EQ(together, expected) << plans.size() << " messages, " << s.lines << " lines, " << s.elem_bytes << " bytes";
  }
}

TEST(InterleavedPieces, PackingTogetherEqualsPackingEachMessage) {
  for (const Shape& s : shapes()) {
    const std::vector<PeerPlan> plans = interleaved_plans(s.lengths, s.lines, s.cut, s.skip_last);
    const Index local_elements = extent(plans);
    const auto local = numbered(local_elements * s.elem_bytes, 7);
    std::vector<std::vector<std::byte>> apart, together;
    std::vector<std::byte*> buffers;
    for (const PeerPlan& p : plans) {
      apart.emplace_back(static_cast<std::size_t>(p.elements * s.elem_bytes));
      pack(p, local, s.elem_bytes, apart.back().data());
      together.emplace_back(apart.back().size(), std::byte{0});
    }
    for (auto& t : together) buffers.push_back(t.data());
    pack_messages(addresses(plans), local, s.elem_bytes, buffers);
    ASSERT_EQ(together, apart) << plans.size() << " messages, " << s.lines << " lines, " << s.elem_bytes << " bytes";
  }
}

// Copied straight from a source (as the local part or a message in shared memory): one stream when
// the source piece holds the window's pieces, else piece by piece. Both must land the same.
TEST(InterleavedPieces, DirectCopiesTakePartWhenTheirSourcePiecesAreLongEnough) {
  const Index lines = 5000, elem_bytes = 8;
  const std::vector<PeerPlan> plans = interleaved_plans({1, 1, 1, 1}, lines, lines, false);
  for (const Index source_piece : {Index{1}, Index{7}, Index{1000}, lines}) {
    const Index pieces = (lines + source_piece - 1) / source_piece;
    // The source of message 3 in pieces of `source_piece` elements, 2 elements apart.
    redist::RunList source_runs;
    for (Index p = 0; p < pieces; ++p) source_runs.push_back({p * (source_piece + 2), std::min(source_piece, lines - p * source_piece), 1, 0});
    const auto source = numbered(pieces * (source_piece + 2) * elem_bytes, 9);
    std::vector<std::vector<std::byte>> messages;
    std::vector<const std::byte*> data;
    for (int m = 0; m < 3; ++m) messages.push_back(numbered(lines * elem_bytes, static_cast<std::uint32_t>(m) + 5));
    for (const auto& m : messages) data.push_back(m.data());
    const std::vector<const PeerPlan*> packed = {&plans[0], &plans[1], &plans[2]};
    const DirectCopy copy{&plans[3], source_runs, source.data()};

    auto expected = numbered(4 * lines * elem_bytes, 3), together = expected;
    for (int m = 0; m < 3; ++m) unpack(plans[static_cast<std::size_t>(m)], data[static_cast<std::size_t>(m)], elem_bytes, expected);
    std::vector<std::byte> gathered(static_cast<std::size_t>(lines * elem_bytes));
    pack(plan_of(0, source_runs), source, elem_bytes, gathered.data());
    unpack(plans[3], gathered.data(), elem_bytes, expected);
    unpack_and_copy(packed, data, {&copy, 1}, elem_bytes, together);
    EXPECT_EQ(together, expected) << "source pieces of " << source_piece;
  }
}

TEST(InterleavedPieces, LinesMovedOneByOneInStreamOrder) {
  // Three streams: 8, 8 and 4 bytes at offsets 0, 8 and 16 of 24-byte lines (the generic kernel),
  // then four 8-byte ones (the fixed kernel).
  const auto a = numbered(16, 1), b = numbered(16, 2), c = numbered(8, 3);
  std::vector<std::byte> lines(48, std::byte{0});
  const std::vector<InterleavedStream<const std::byte*>> three = {{a.data(), 0, 8}, {b.data(), 8, 8}, {c.data(), 16, 4}};
  move_interleaved<true>(lines.data(), 24, std::span(three), 2);
  for (int line = 0; line < 2; ++line) {
    for (int i = 0; i < 8; ++i) EXPECT_EQ(lines[static_cast<std::size_t>(24 * line + i)], a[static_cast<std::size_t>(8 * line + i)]);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(lines[static_cast<std::size_t>(24 * line + 8 + i)], b[static_cast<std::size_t>(8 * line + i)]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(lines[static_cast<std::size_t>(24 * line + 16 + i)], c[static_cast<std::size_t>(4 * line + i)]);
    for (int i = 20; i < 24; ++i) EXPECT_EQ(lines[static_cast<std::size_t>(24 * line + i)], std::byte{0});
  }
  std::vector<std::vector<std::byte>> out(4, std::vector<std::byte>(24));
  std::vector<InterleavedStream<std::byte*>> four;
  for (Index m = 0; m < 4; ++m) four.push_back({out[static_cast<std::size_t>(m)].data(), 8 * m, 8});
  const auto local = numbered(96, 4);
  move_interleaved<false>(local.data(), 32, std::span<const InterleavedStream<std::byte*>>(four), 3);
  for (std::size_t m = 0; m < 4; ++m) {
    for (std::size_t line = 0; line < 3; ++line) {
      for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(out[m][8 * line + i], local[32 * line + 8 * m + i]);
    }
  }
}

// Sweeps over more than kStreamingBytes write with streaming stores: interleaved lines (pieces of 1
// element from 4 messages, and from 12 and 16: more than one pass moves, kStreamsAtOnce) and
// messages gathered piece by piece (pieces of 5, 7 and 9 elements, too long to interleave). Same
// bytes as each message packed and unpacked apart.
TEST(InterleavedPieces, SweepsLargerThanTheCachesWriteTheSameBytes) {
  const Index elem_bytes = 8;
  for (const std::vector<Index>& lengths : {std::vector<Index>{1, 1, 1, 1}, std::vector<Index>{5, 7, 9},
                                            std::vector<Index>(12, 1), std::vector<Index>(kMostInterleaved, 1)}) {
    Index line = 0;
    for (Index l : lengths) line += l;
    const Index lines = kStreamingBytes / (line * elem_bytes) + 1000;
    const std::vector<PeerPlan> plans = interleaved_plans(lengths, lines, lines / 2 + 1, false);
    const Index local_elements = extent(plans);
    ASSERT_GE(local_elements * elem_bytes, kStreamingBytes);

    const auto local = numbered(local_elements * elem_bytes, 7);
    std::vector<std::vector<std::byte>> apart, together;
    std::vector<std::byte*> buffers;
    for (const PeerPlan& p : plans) {
      apart.emplace_back(static_cast<std::size_t>(p.elements * elem_bytes));
      pack(p, local, elem_bytes, apart.back().data());
      together.emplace_back(apart.back().size(), std::byte{0});
    }
    for (auto& t : together) buffers.push_back(t.data());
    pack_messages(addresses(plans), local, elem_bytes, buffers);
    EXPECT_EQ(together, apart) << lengths.size() << " messages";

    std::vector<const std::byte*> data;
    for (const auto& m : apart) data.push_back(m.data());
    auto expected = numbered(local_elements * elem_bytes, 3), unpacked = expected;
    for (std::size_t k = 0; k < plans.size(); ++k) unpack(plans[k], data[k], elem_bytes, expected);
    unpack_messages(addresses(plans), data, elem_bytes, unpacked);
    EXPECT_EQ(unpacked, expected) << lengths.size() << " messages";
    EXPECT_EQ(unpacked, local);  // every element back where it was packed from
  }
}

// Lines written with streaming stores (local storage larger than the caches) hold the same bytes:
// the fixed kernels (4, 8, 16 bytes) and the generic one (24 bytes streamed, 5 bytes plainly).
TEST(InterleavedPieces, StreamingStoresWriteTheSameLines) {
  for (const Index bytes : {Index{4}, Index{8}, Index{16}, Index{24}, Index{5}}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{4}}) {
      const Index lines = 1000;
      std::vector<std::vector<std::byte>> data;
      std::vector<InterleavedStream<const std::byte*>> streams;
      for (std::size_t m = 0; m < k; ++m) data.push_back(numbered(lines * bytes, static_cast<std::uint32_t>(m) + 1));
      for (std::size_t m = 0; m < k; ++m) streams.push_back({data[m].data(), static_cast<Index>(m) * bytes, bytes});
      const Index line_bytes = static_cast<Index>(k) * bytes;
      std::vector<std::byte> cached(static_cast<std::size_t>(lines * line_bytes)), streamed(cached.size());
      move_interleaved<true>(cached.data(), line_bytes, std::span<const InterleavedStream<const std::byte*>>(streams), lines, false);
      move_interleaved<true>(streamed.data(), line_bytes, std::span<const InterleavedStream<const std::byte*>>(streams), lines, true);
      finish_streaming();
      EXPECT_EQ(streamed, cached) << k << " streams of " << bytes << "-byte pieces";
      for (std::size_t m = 0; m < k; ++m) {
        EXPECT_EQ(streamed[static_cast<std::size_t>(line_bytes * 999) + m * static_cast<std::size_t>(bytes)],
                  data[m][static_cast<std::size_t>(999 * bytes)]);
      }
    }
  }
}

// More streams than one pass moves (kStreamsAtOnce) go in several passes over the same lines: each
// piece lands where one pass would put it, the fixed kernels (equal pieces) and the generic one
// (unequal), written plainly and with streaming stores.
TEST(InterleavedPieces, MoreStreamsThanOnePassMovesLandTheSame) {
  for (const std::size_t k : {kStreamsAtOnce + 1, std::size_t{12}, kMostInterleaved}) {
    for (const bool unequal : {false, true}) {
      for (const bool streaming : {false, true}) {
        const Index lines = 700;
        std::vector<Index> bytes, offsets;
        Index line_bytes = 0;
        for (std::size_t m = 0; m < k; ++m) {
          bytes.push_back(unequal ? 4 + 4 * static_cast<Index>(m % 3) : 8);
          offsets.push_back(line_bytes);
          line_bytes += bytes.back();
        }
        std::vector<std::vector<std::byte>> data, packed(k);
        std::vector<InterleavedStream<const std::byte*>> in;
        std::vector<InterleavedStream<std::byte*>> out;
        for (std::size_t m = 0; m < k; ++m) {
          data.push_back(numbered(lines * bytes[m], static_cast<std::uint32_t>(m) + 1));
          packed[m].assign(data[m].size(), std::byte{0});
          in.push_back({data[m].data(), offsets[m], bytes[m]});
          out.push_back({packed[m].data(), offsets[m], bytes[m]});
        }
        std::vector<std::byte> local(static_cast<std::size_t>(lines * line_bytes));
        move_interleaved<true>(local.data(), line_bytes, std::span<const InterleavedStream<const std::byte*>>(in), lines, streaming);
        finish_streaming();
        for (std::size_t m = 0; m < k; ++m) {
          for (const Index line : {Index{0}, Index{1}, lines - 1}) {
            for (Index i = 0; i < bytes[m]; ++i) {
              ASSERT_EQ(local[static_cast<std::size_t>(line * line_bytes + offsets[m] + i)],
                        data[m][static_cast<std::size_t>(line * bytes[m] + i)])
                  << k << " streams, stream " << m << ", line " << line;
            }
          }
        }
        move_interleaved<false>(static_cast<const std::byte*>(local.data()), line_bytes,
                                std::span<const InterleavedStream<std::byte*>>(out), lines, streaming);
        finish_streaming();
        EXPECT_EQ(packed, data) << k << " streams" << (unequal ? ", unequal pieces" : "") << (streaming ? ", streamed" : "");
      }
    }
  }
}

}  // namespace
}  // namespace redist
