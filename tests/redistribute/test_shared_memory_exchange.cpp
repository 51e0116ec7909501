// The shared-memory exchange (redistribute/shared_memory_exchange.hpp) on threads that share memory:
// every message packed into its sender's area and unpacked out of it, or, with the sources read in
// place, long-pieced messages copied once straight out of their senders' sources; areas reused and
// grown over repeated executions of one plan.
#include <gtest/gtest.h>

#include <atomic>
#include <random>

#include "redist/layout/block_cyclic.hpp"
#include "redist/redistribute/shared_memory_exchange.hpp"
#include "redist/redistribute/verified_run.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

struct Outcome {
  bool verified = true;
  Index copied_once = 0, bytes_sent = 0;
};

Outcome run_threads(const Layout& source, const Layout& dest, test::ThreadMemory memory, int executions) {
  const RedistributeOptions options;
  test::ThreadWorld world(static_cast<Rank>(options.ranks.ranks_needed(source.processors(), dest.processors())), memory);
  std::atomic<bool> verified = true;
  std::atomic<Index> once = 0, sent = 0;
  world.run([&](Transport& transport) {
    const VerifiedReport v = redistribute_and_verify(transport, source, dest, options, executions);
    if (v.verified != std::optional<bool>(true)) verified = false;
    once += v.report.bytes_copied_once;
    sent += v.report.bytes_sent;
  });
  return {verified, once, sent};
}

TEST(SharedMemoryExchange, PackedOrCopiedOnceEveryElementArrives) {
  std::mt19937_64 rng(20261129);
  for (int n = 0; n < 24; ++n) {
    std::uniform_int_distribution<Index> procs(1, 6), block(1, 300);
    const Index N = std::uniform_int_distribution<Index>(1, 60000)(rng);
    const Layout source = BlockCyclic(N, block(rng), procs(rng)), dest = BlockCyclic(N, block(rng), procs(rng));
    SCOPED_TRACE(testing::Message() << "case " << n << ": N " << N);
    const Outcome messages = run_threads(source, dest, {}, 1);
    const Outcome packed = run_threads(source, dest, {.shared = true}, 3);
    const Outcome once = run_threads(source, dest, {.shared = true, .sources_shared = true}, 3);
    EXPECT_TRUE(messages.verified);
    EXPECT_TRUE(packed.verified);
    EXPECT_TRUE(once.verified);
    EXPECT_EQ(packed.copied_once, 0);
    EXPECT_LE(once.copied_once, once.bytes_sent);
  }
}

TEST(SharedMemoryExchange, LongPiecesAreCopiedOnceShortOnesPacked) {
  const Layout source = BlockCyclic(40000, 64, 4), dest = BlockCyclic(40000, 100, 3);
  const Outcome long_pieces = run_threads(source, dest, {.shared = true, .sources_shared = true}, 1);
  EXPECT_TRUE(long_pieces.verified);
  EXPECT_GT(long_pieces.copied_once, 0);
  const Layout fine = BlockCyclic(40000, 1, 4), coarse = BlockCyclic(40000, 3, 3);  // 8-byte pieces
  const Outcome short_pieces = run_threads(fine, coarse, {.shared = true, .sources_shared = true}, 1);
  EXPECT_TRUE(short_pieces.verified);
  EXPECT_EQ(short_pieces.copied_once, 0);
}

}  // namespace
}  // namespace redist
