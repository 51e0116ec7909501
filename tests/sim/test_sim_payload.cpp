// Payloads on the simulator: real bytes arrive intact, phantom runs take as long, oversized messages fail.
#include <gtest/gtest.h>

#include <array>

#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

TEST(SimEnginePayload, RealBytesArriveIntact) {
  const auto out = simulate(on("star4.xml", 4), all_to_all(true));
  for (const auto& s : out) EXPECT_NE(s.find(" verified"), std::string::npos) << s;
}

TEST(SimEnginePayload, PhantomRunTakesTheSameSimulatedTimeAsTheRealOne) {
  const auto real = simulate(on("star4.xml", 4, /*phantom=*/false), all_to_all(false));
  const auto phantom = simulate(on("star4.xml", 4, /*phantom=*/true), all_to_all(false));
  EXPECT_EQ(real, phantom);
}

TEST(SimEnginePayload, MessageLargerThanTheReceiveIsAnError) {
  const auto message = error_of(on("two_hosts.xml", 2), [](Transport& t) {
    std::array<std::byte, 8> buffer{};
    Request r = t.rank() == 0 ? t.isend(1, buffer.data(), 8, 0) : t.irecv(0, buffer.data(), 4, 0);
    t.wait_all(one(r));
    return std::string();
  });
  EXPECT_ONE_LINE_CONTAINING(message, "rank 1: message of 8 bytes from rank 0 (tag 0) exceeds the receive capacity of 4");
}

}  // namespace
}  // namespace redist::sim
