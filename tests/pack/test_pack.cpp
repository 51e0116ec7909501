// Paper 001's PACK/UNPACK on the in-process thread transport: geometry, the vector
// prefix-reduction-sums, the parallel ranking against a sequential prefix count, the counted work
// of each step against the paper's complexity, and PACK/UNPACK against Fortran semantics.
#include <gtest/gtest.h>

#include <cmath>
#include <mutex>
#include <random>

#include "redist/transport/counting_transport.hpp"
#include "pack_case.hpp"
#include "redist/pack/linear_exchange.hpp"
#include "redist/pack/prefix_reduction_sum.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

using pack::Geometry;

TEST(PackGeometry, LocalOffsetsAndGlobalCoordinatesAreInverse) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const auto c = test::random_pack_case(rng, std::uniform_int_distribution<Index>(1, 12)(rng));
    const Geometry g = c.geometry();
    std::vector<int> seen(static_cast<std::size_t>(g.size()), 0);
    for (Index p = 0; p < g.processors(); ++p) {
      const auto linear = g.local_linear_indices(p);
      ASSERT_EQ(static_cast<Index>(linear.size()), g.local_size());
      for (Index offset = 0; offset < g.local_size(); ++offset) {
        ASSERT_EQ(linear[static_cast<std::size_t>(offset)], g.linear_index(g.global_coords(p, offset))) << c.describe();
        const auto coords = g.global_coords(p, offset);
        ASSERT_EQ(g.owner(coords), p) << c.describe();
        ASSERT_EQ(g.local_offset(coords), offset) << c.describe();
        ASSERT_EQ(g.coords_of_linear(g.linear_index(coords)), coords);
        ++seen[static_cast<std::size_t>(g.linear_index(coords))];
      }
    }
    for (int s : seen) ASSERT_EQ(s, 1) << c.describe();
  }
}

TEST(PackGeometry, RejectsWhatThePaperExcludes) {
  EXPECT_THROW(Geometry({10}, {4}, {1}), std::invalid_argument);  // P·W does not divide N
  EXPECT_THROW(Geometry({8}, {2}, {0}), std::invalid_argument);
  EXPECT_THROW(Geometry({8}, {0}, {1}), std::invalid_argument);
  EXPECT_THROW(Geometry({}, {}, {}), std::invalid_argument);
  EXPECT_THROW(Geometry({8, 8}, {2}, {1, 1}), std::invalid_argument);
  EXPECT_THROW(Geometry({Index{1} << 40, Index{1} << 40}, {1, 1}, {1, 1}), std::exception);
  EXPECT_THROW(pack::MaskSpec::named("diagonal", 50, 1), std::invalid_argument);
  EXPECT_THROW(pack::MaskSpec::named("random", 101, 1), std::invalid_argument);
  EXPECT_THROW(pack::scheme_from_name("xyz"), std::invalid_argument);
  EXPECT_THROW(pack::prs_algorithm_from_name("tree"), std::invalid_argument);
}

TEST(PackMask, TriangleIsThePapersAndDensityIsRoughlyKept) {
  const Geometry one({64}, {4}, {2});
  const Geometry two({16, 16}, {2, 2}, {2, 2});
  const auto triangle = pack::MaskSpec::named("triangle", 0, 1);
  for (Index i = 0; i < 64; ++i) EXPECT_EQ(triangle.value(one, std::vector<Index>{i}), i < 32);
  for (Index i0 = 0; i0 < 16; ++i0) {
    for (Index i1 = 0; i1 < 16; ++i1) EXPECT_EQ(triangle.value(two, std::vector<Index>{i0, i1}), i1 > i0);
  }
  const Geometry big({1 << 14}, {1}, {1});
  for (Index density : {0, 10, 50, 90, 100}) {
    const auto mask = pack::local_mask(big, pack::MaskSpec::named("random", density, 7), 0);
    const double fraction = static_cast<double>(std::count(mask.begin(), mask.end(), 1)) / static_cast<double>(mask.size());
    EXPECT_NEAR(fraction, static_cast<double>(density) / 100, 0.02);
  }
}

// Every member's prefix and total from both algorithms equal the sums computed directly.
TEST(PrefixReductionSum, DirectAndSplitEqualBruteForce) {
  std::mt19937_64 rng(5);
  for (Rank members = 1; members <= 9; ++members) {
    for (std::size_t length : {std::size_t{1}, std::size_t{3}, std::size_t{17}}) {
      std::vector<std::vector<Index>> inputs(static_cast<std::size_t>(members), std::vector<Index>(length));
      for (auto& v : inputs) {
        for (auto& x : v) x = std::uniform_int_distribution<Index>(0, 1000)(rng);
      }
      for (auto algorithm : {pack::PrsAlgorithm::Direct, pack::PrsAlgorithm::Split, pack::PrsAlgorithm::Auto}) {
        test::ThreadWorld world(members);
        std::vector<Index> line(static_cast<std::size_t>(members));
        std::iota(line.begin(), line.end(), 0);
        world.run([&](Transport& t) {
          const auto me = static_cast<std::size_t>(t.rank());
          std::vector<Index> prefix(length, -1), total(length, -1);
          pack::prefix_reduction_sum(t, line, me, inputs[me], prefix, total, algorithm, 7);
          for (std::size_t j = 0; j < length; ++j) {
            Index before = 0, all = 0;
            for (std::size_t k = 0; k < inputs.size(); ++k) {
              if (k < me) before += inputs[k][j];
              all += inputs[k][j];
            }
            if (prefix[j] != before || total[j] != all) throw std::runtime_error("wrong prefix-reduction-sum");
          }
        });
      }
    }
  }
}

// Direct: ceil(lg P) rounds of the whole vector. Split: about 3M words whatever P.
TEST(PrefixReductionSum, CountedVolumeFollowsThePapersComplexity) {
  const std::size_t m = 64;
  for (Rank members : {2, 4, 8, 16}) {
    for (auto algorithm : {pack::PrsAlgorithm::Direct, pack::PrsAlgorithm::Split}) {
      test::ThreadWorld world(members);
      std::vector<Index> line(static_cast<std::size_t>(members));
      std::iota(line.begin(), line.end(), 0);
      std::mutex lock;
      Index most_bytes = 0, most_messages = 0, most_adds = 0;
      world.run([&](Transport& inner) {
        CountingTransport t(inner);
        std::vector<Index> values(m, 1), prefix(m), total(m);
        pack::prefix_reduction_sum(t, line, static_cast<std::size_t>(t.rank()), values, prefix, total, algorithm, 3);
        const std::lock_guard guard(lock);
        most_bytes = std::max(most_bytes, t.bytes_sent);
        most_messages = std::max(most_messages, t.messages);
        most_adds = std::max(most_adds, t.work.count(WorkKind::ElementScanned));
      });
      const auto rounds = static_cast<Index>(std::log2(members));
      const auto words = static_cast<Index>(m);
      if (algorithm == pack::PrsAlgorithm::Direct) {
        EXPECT_EQ(most_bytes, 8 * words * rounds) << members;
        EXPECT_EQ(most_messages, rounds);
        EXPECT_EQ(most_adds, 2 * words * rounds);
      } else {
        EXPECT_LE(most_bytes, 8 * 3 * words) << members;
        EXPECT_GE(most_bytes, 8 * 3 * words * (members - 1) / members) << members;
        EXPECT_EQ(most_messages, 2 * (members - 1));
        EXPECT_EQ(most_adds, 2 * words);
      }
    }
  }
}

// The direct algorithm's additions cost `units_per_add` each (3 memory accesses in the paper's C):
// member k of a line of 4 adds the total twice and the prefix once per partner below it (k's bits).
TEST(PrefixReductionSum, DirectChargesEachAdditionAtTheGivenUnits) {
  const std::size_t m = 10;
  std::vector<Index> adds(4, -1);
  std::mutex lock;
  test::ThreadWorld world(4);
  const std::vector<Index> line = {0, 1, 2, 3};
  world.run([&](Transport& inner) {
    CountingTransport t(inner);
    std::vector<Index> values(m, 1), prefix(m), total(m);
    pack::prefix_reduction_sum(t, line, static_cast<std::size_t>(t.rank()), values, prefix, total, pack::PrsAlgorithm::Direct, 3, 3);
    const std::lock_guard guard(lock);
    adds[static_cast<std::size_t>(t.rank())] = t.work.count(WorkKind::ElementScanned);
  });
  // rank 0: 2 total additions; 1 and 2: one prefix addition more; 3: two more. Times 3 x 10 accesses.
  EXPECT_EQ(adds, (std::vector<Index>{60, 90, 90, 120}));
}

Index sequential_rank(const std::vector<std::uint8_t>& global_mask, Index linear) {
  return std::count(global_mask.begin(), global_mask.begin() + linear, 1);
}

// The ranking equals a sequential prefix count, with direct and split alike.
TEST(ParallelRanking, EqualsSequentialPrefixCountWithDirectAndSplit) {
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 120; ++trial) {
    const auto c = test::random_pack_case(rng, std::uniform_int_distribution<Index>(1, 8)(rng));
    const Geometry g = c.geometry();
    const auto global = test::global_arrays(g, c.mask);
    std::vector<std::vector<Index>> by_algorithm;
    for (auto algorithm : {pack::PrsAlgorithm::Direct, pack::PrsAlgorithm::Split}) {
      std::vector<Index> ranks(static_cast<std::size_t>(g.size()), -2);
      test::ThreadWorld world(static_cast<Rank>(g.processors()));
      std::mutex lock;
      world.run([&](Transport& t) {
        const auto mask = pack::local_mask(g, c.mask, t.rank());
        Work work;
        Phases times;
        const auto ranking = pack::finish_ranking(t, g, pack::count_slices(g, mask, work), algorithm, times);
        const auto local = pack::element_ranks(g, mask, ranking);
        const std::lock_guard guard(lock);
        for (Index offset = 0; offset < g.local_size(); ++offset) {
          ranks[static_cast<std::size_t>(g.linear_index(g.global_coords(t.rank(), offset)))] = local[static_cast<std::size_t>(offset)];
        }
      });
      for (Index linear = 0; linear < g.size(); ++linear) {
        const Index expected = global.mask[static_cast<std::size_t>(linear)] ? sequential_rank(global.mask, linear) : -1;
        ASSERT_EQ(ranks[static_cast<std::size_t>(linear)], expected) << c.describe() << " at " << linear;
      }
      by_algorithm.push_back(ranks);
    }
    EXPECT_EQ(by_algorithm[0], by_algorithm[1]);
  }
}

// Local work of ranking: the initial scan visits every element (Θ(Π L_i)); the intermediate and
// final steps touch each base-rank array entry a fixed number of times (Θ((Π_{k>i} L_k)·T_i)), so
// they shrink as the block size on the lower dimension grows.
TEST(ParallelRanking, CountedWorkFollowsThePapersComplexity) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 60; ++trial) {
    const auto c = test::random_pack_case(rng, 1);
    const Geometry g = c.geometry();
    const auto mask = pack::local_mask(g, c.mask, 0);
    Work scan;
    const auto counts = pack::count_slices(g, mask, scan);
    EXPECT_EQ(scan.count(WorkKind::ElementScanned), g.local_size());
    EXPECT_EQ(static_cast<Index>(counts.size()), g.slices());
    Index expected = 0;
    for (std::size_t i = 0; i < g.rank(); ++i) {
      const Index entries = g.outer(i) * g.tiles(i);
      const Index next = i + 1 < g.rank() ? g.outer(i + 1) * g.tiles(i + 1) : 1;
      expected += entries + next + (i + 1 < g.rank() ? entries : 0);
    }
    test::ThreadWorld world(1);
    world.run([&](Transport& inner) {
      CountingTransport t(inner);
      Phases times;
      pack::finish_ranking(t, g, counts, pack::PrsAlgorithm::Auto, times);
      if (t.work.count(WorkKind::ElementScanned) != expected || t.messages != 0) throw std::runtime_error(c.describe());
    });
  }
  // 1-D: T_0 + 1 entries per intermediate step: halving with each doubling of W_0.
  for (Index w : {1, 2, 4, 8, 16}) {
    const Geometry g({256}, {1}, {w});
    test::ThreadWorld world(1);
    world.run([&](Transport& inner) {
      CountingTransport t(inner);
      Phases times;
      pack::finish_ranking(t, g, std::vector<Index>(static_cast<std::size_t>(256 / w), 1), pack::PrsAlgorithm::Auto, times);
      if (t.work.count(WorkKind::ElementScanned) != 256 / w + 1) throw std::runtime_error("1-D ranking work");
    });
  }
}

struct SchemeCounts {
  Work work;
  Index bytes = 0;
};

SchemeCounts pack_counts(const Geometry& g, const pack::MaskSpec& mask, pack::Scheme scheme) {
  SchemeCounts total;
  std::mutex lock;
  test::ThreadWorld world(static_cast<Rank>(g.processors()));
  world.run([&](Transport& inner) {
    CountingTransport t(inner);
    const auto m = pack::local_mask(g, mask, t.rank());
    pack::pack(t, g, test::local_values(g, t.rank(), test::value_of), m, {scheme, pack::PrsAlgorithm::Direct, 0});
    const std::lock_guard guard(lock);
    total.work += t.work;
    total.bytes += t.bytes_sent;
  });
  return total;
}

// §6.4: SSS keeps one record per packed element (written, then read: 2E table entries); CSS keeps
// none and its final step costs one index operation per slice and segment (C + G_s); CMS messages
// hold E + 2G_s words against CSS's 2E, so CMS sends less near BLOCK and more for CYCLIC.
TEST(PackSchemes, CountedWorkAndVolumeFollowSection6) {
  const auto mask = pack::MaskSpec::named("random", 50, 9);
  for (Index w : {1, 4, 32}) {
    const Geometry g({512}, {4}, {w});
    Index packed = 0;
    for (Index p = 0; p < 4; ++p) {
      const auto m = pack::local_mask(g, mask, p);
      packed += std::count(m.begin(), m.end(), 1);
    }
    const auto sss = pack_counts(g, mask, pack::Scheme::Simple);
    const auto css = pack_counts(g, mask, pack::Scheme::CompactStorage);
    const auto cms = pack_counts(g, mask, pack::Scheme::CompactMessage);
    EXPECT_EQ(sss.work.count(WorkKind::TableEntry), 2 * packed);
    EXPECT_EQ(css.work.count(WorkKind::TableEntry), 0);
    EXPECT_GE(css.work.count(WorkKind::IndexOp), g.processors() * g.slices());
    EXPECT_LE(css.work.count(WorkKind::IndexOp), g.processors() * g.slices() + packed);
    if (w == 1) {
      EXPECT_GT(cms.bytes, css.bytes);
    }
    if (w == 32) {
      EXPECT_LT(cms.bytes, css.bytes);
    }
  }
}

// PACK then UNPACK against Fortran semantics on the thread transport (the simulator runs the
// acceptance set in test_pack_sim).
TEST(PackUnpack, MatchesFortranSemanticsOnThreads) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 60; ++trial) {
    const auto c = test::random_pack_case(rng, std::uniform_int_distribution<Index>(1, 6)(rng));
    for (auto scheme : {pack::Scheme::Simple, pack::Scheme::CompactStorage, pack::Scheme::CompactMessage}) {
      test::ThreadWorld world(static_cast<Rank>(c.geometry().processors()));
      world.run([&](Transport& t) {
        const auto unpack_scheme = scheme == pack::Scheme::CompactMessage ? pack::Scheme::CompactStorage : scheme;
        const auto prered = static_cast<pack::Preredistribution>(trial % 3);
        const auto error = test::check_pack_case(t, c, scheme, unpack_scheme, pack::PrsAlgorithm::Auto, prered);
        if (!error.empty()) throw std::runtime_error(c.describe() + ": " + error);
      });
    }
  }
}

TEST(PackUnpack, RejectsAVectorShorterThanTheMask) {
  const Geometry g({8}, {2}, {1});
  test::ThreadWorld world(2);
  EXPECT_THROW(world.run([&](Transport& t) {
    const auto mask = pack::local_mask(g, pack::MaskSpec::named("random", 100, 1), t.rank());
    const auto field = test::local_values(g, t.rank(), test::field_of);
    std::vector<Index> v(2, 0);
    pack::unpack(t, g, v, mask, field, {pack::Scheme::Simple, pack::PrsAlgorithm::Auto, 4, 0});
  }),
               std::invalid_argument);
}

}  // namespace
}  // namespace redist
