// The algorithms' redistribute() (on the tests' thread transport) refuses what it cannot do right,
// before it plans: source and destination in overlapping storage (it does not work in place),
// buffers of the wrong size for a huge layout, null buffers where the rank holds elements.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "../thread_transport.hpp"
#include "redist/layout/layout.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::test {
namespace {

// The message redistribute() throws on a one-rank world, or "(no exception)".
std::string refusal(const Layout& source, const Layout& dest, std::span<const std::byte> from, std::span<std::byte> to) {
  ThreadWorld world(1);
  try {
    world.run([&](Transport& transport) { redistribute(transport, source, dest, from, to, {}); });
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(ApiBuffers, SameOrOverlappingStorageIsRefused) {
  const Layout source = BlockCyclic(1000, 10, 1), dest = BlockCyclic(1000, 7, 1);
  std::vector<std::byte> storage(8 * 1000 + 8);
  const std::span<std::byte> whole(storage.data(), 8000), shifted(storage.data() + 8, 8000);
  EXPECT_EQ(refusal(source, dest, whole, whole),
            "rank 0: source and destination buffers overlap (8000 bytes in common): redistribute() does not work in "
            "place, give the destination its own storage");
  EXPECT_EQ(refusal(source, dest, whole, shifted),
            "rank 0: source and destination buffers overlap (7992 bytes in common): redistribute() does not work in "
            "place, give the destination its own storage");
  std::vector<std::byte> apart(8000);
  EXPECT_EQ(refusal(source, dest, whole, apart), "(no exception)");
}

TEST(ApiBuffers, WrongSizesForAHugeLayoutAreRefusedBeforePlanning) {
  const Layout huge = BlockCyclic(Index{1} << 40, 64, 1);
  std::vector<std::byte> from(80), to(80);
  EXPECT_EQ(refusal(huge, huge, from, to), "rank 0: source buffer holds 80 bytes, the layout needs 8796093022208");
}

TEST(ApiBuffers, NullBufferWithElementsIsRefused) {
  const Layout layout = BlockCyclic(1000, 10, 1);
  std::vector<std::byte> to(8000);
  const std::byte* null = nullptr;
  EXPECT_EQ(refusal(layout, layout, std::span<const std::byte>(null, 8000), to),
            "rank 0: source buffer is null, and the layout gives this rank 8000 bytes of it");
}

}  // namespace
}  // namespace redist::test
