#include "every_indexing_method.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <string>

#include "redist/indexing/naive_indexing.hpp"

namespace redist::test {
namespace {

// Tests that asked for every method, and tests that planned with the dummy (from any thread).
struct Calls {
  std::mutex mutex;
  std::set<std::string> iterating, planned_with_dummy;

  void note(std::set<std::string>& into) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (info == nullptr) return;
    const std::lock_guard lock(mutex);
    into.insert(std::string(info->test_suite_name()) + "." + info->name());
  }
};

Calls& calls() {
  static Calls instance;
  return instance;
}

// The naive owner scan under another name, indexed dimension by dimension and unpacked in
// source-rank order: correct wherever naive is, so every method-iterating test can run it.
RankPlan dummy_plan(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me, bool materialise,
                    Work& work) {
  calls().note(calls().planned_with_dummy);
  return naive_plan(source, dest, ranks, me, materialise, work);
}

// After the last test of the program (ctest runs one test a program).
class EveryIteratingTestRanTheDummy : public ::testing::Environment {
  void TearDown() override {
    const std::lock_guard lock(calls().mutex);
    for (const std::string& name : calls().iterating) {
      EXPECT_TRUE(calls().planned_with_dummy.contains(name))
          << name << " iterates every indexing method but never planned with the registered '" << kDummyMethod << "'";
    }
  }
};

const bool kRegistered = [] {
  register_indexing_method({kDummyMethod, dummy_plan, UnpackOrder::SourceRank, true});
  ::testing::AddGlobalTestEnvironment(new EveryIteratingTestRanTheDummy);
  return true;
}();

}  // namespace

const std::vector<IndexingMethod>& every_indexing_method() {
  (void)kRegistered;
  calls().note(calls().iterating);
  return indexing_methods();
}

}  // namespace redist::test
