// The simulated rank's table of pending requests: handles stay unique and stale ones are refused,
// while slots are reused (a simulated all-to-all posts millions of requests).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

#include "redist/sim/request_table.hpp"

namespace redist::sim {
namespace {

TEST(SimRequestTable, ReleasedHandlesAreRefusedAndTheirSlotsReused) {
  RequestTable<int> table;
  auto [first, a] = table.acquire();
  a = 7;
  EXPECT_EQ(table.at(first), 7);
  EXPECT_EQ(table.size(), 1u);
  table.release(first);
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.find(first), nullptr);
  EXPECT_THROW(table.at(first), std::invalid_argument);
  EXPECT_THROW(table.release(first), std::invalid_argument);

  auto [second, b] = table.acquire();
  EXPECT_NE(second, first);  // same slot, a new generation
  EXPECT_EQ(&b, &a);         // the object is reused, not allocated again
  EXPECT_EQ(b, 7);           // and keeps what its last user left
  EXPECT_EQ(table.find(first), nullptr);
  EXPECT_EQ(table.find(second), &b);
}

TEST(SimRequestTable, PendingHandlesAreDistinctAndNeverNull) {
  RequestTable<int> table;
  std::set<Request> seen;
  for (int round = 0; round < 100; ++round) {
    std::vector<Request> held;
    for (int k = 0; k < 5; ++k) held.push_back(table.acquire().first);
    for (Request r : held) {
      EXPECT_NE(r, kNullRequest);
      EXPECT_GE(r, 0);
      EXPECT_TRUE(seen.insert(r).second) << "handle " << r << " handed out twice";
    }
    for (Request r : held) table.release(r);
  }
  EXPECT_EQ(table.find(kNullRequest), nullptr);
  EXPECT_EQ(table.find(Request{1} << 40), nullptr);
}

}  // namespace
}  // namespace redist::sim
