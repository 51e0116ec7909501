// The cost model: charged work advances a rank's clock by its priced amount.
#include <gtest/gtest.h>

#include "sim_engine_support.hpp"

namespace redist::sim {
namespace {

using namespace engine_test;

TEST(SimEngineCost, ChargeAdvancesTheClockByThePricedAmount) {
  const auto out = simulate(on("two_hosts.xml", 2), [](Transport& t) {
    Work work;
    work.add(WorkKind::IndexOp, 1000)
        .add(WorkKind::TableEntry, 200)
        .add(WorkKind::Intersection, 30)
        .add(WorkKind::ElementScanned, 4000)
        .add(WorkKind::ByteCopied, 50000)
        .add(WorkKind::RunCopied, 6)
        .add(WorkKind::RecordCopied, 7);  // unpriced on this platform (written for the papers): free
    const double before = t.now();
    t.charge(work);
    return seconds(t.now() - before);
  });
  const double priced = 1000 * 1e-8 + 200 * 2e-8 + 30 * 4e-8 + 4000 * 3e-9 + 50000 * 1e-9 + 6 * 5e-8;
  // node-0 computes at 1 Gflop/s and node-1 at 2: the price is in seconds on either.
  EXPECT_NEAR(seconds_of(out[0]), priced, 1e-12);
  EXPECT_NEAR(seconds_of(out[1]), priced, 1e-12);
}

}  // namespace
}  // namespace redist::sim
