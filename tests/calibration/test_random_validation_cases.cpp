// The seeded random cases of `redist validate`: reproducible, within their bounds, each one the
// library accepts (krr and walker-otto refuse other shapes), and every method appearing.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "redist/calibration/random_validation_cases.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/layout/scalapack_descriptor.hpp"

namespace redist::calibration {
namespace {

constexpr int kCount = 50;  // `redist validate`'s default

bool one_divides_the_other(Index a, Index b) { return a % b == 0 || b % a == 0; }

TEST(RandomValidationCases, TheSameSeedGivesTheSameCases) {
  const auto a = random_validation_cases(kCount, 18), b = random_validation_cases(kCount, 18);
  const auto other = random_validation_cases(kCount, 19);
  ASSERT_EQ(a.size(), static_cast<std::size_t>(kCount));
  std::set<std::string> labels_a, labels_other;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].label(), b[i].label());
    labels_a.insert(a[i].label());
    labels_other.insert(other[i].label());
  }
  EXPECT_NE(labels_a, labels_other);
  EXPECT_GT(labels_a.size(), static_cast<std::size_t>(kCount - 2));  // hardly any case twice
  // A longer run starts with the same cases.
  EXPECT_EQ(random_validation_cases(kCount + 10, 18)[kCount - 1].label(), a[kCount - 1].label());
}

TEST(RandomValidationCases, EveryCaseIsWithinBoundsAndAccepted) {
  for (const std::uint64_t seed : {18ULL, 1ULL, 123456789ULL}) {
    for (const auto& c : random_validation_cases(200, seed)) {
      SCOPED_TRACE(c.label());
      EXPECT_GE(c.ranks(), 2);
      EXPECT_LE(c.ranks(), kMaxValidationRanks);
      EXPECT_GE(c.P, 1);
      EXPECT_GE(c.Q, 1);
      EXPECT_GE(c.N, kMinValidationElements);
      EXPECT_LE(c.N, kMaxValidationElements);
      EXPECT_GE(std::min(c.r, c.s), 1);
      EXPECT_LE(std::max(c.r, c.s), kMaxValidationBlock);
      EXPECT_TRUE(c.relabel == "none" || !c.disjoint);
      EXPECT_TRUE(c.indexing != "krr" || one_divides_the_other(c.r, c.s));
      if (c.schedule == "walker-otto") {  // P = Q and s = K·r (or r = K·s) with K <= P
        EXPECT_EQ(c.P, c.Q);
        ASSERT_TRUE(one_divides_the_other(c.r, c.s));
        EXPECT_LE(std::max(c.r, c.s) / std::min(c.r, c.s), c.P);
      }
    }
  }
}

TEST(RandomValidationCases, EveryMethodScheduleAndRelabellingAppearsSeveralTimes) {
  std::map<std::string, int> seen;
  Index small_blocks = 0, large_blocks = 0, disjoint = 0, below_2mib = 0, above_8mib = 0;
  for (const auto& c : random_validation_cases(kCount, 18)) {
    ++seen["indexing " + c.indexing];
    ++seen["schedule " + c.schedule];
    ++seen["relabel " + c.relabel];
    for (const Index b : {c.r, c.s}) (b <= 8 ? small_blocks : large_blocks) += 1;
    disjoint += c.disjoint;
    below_2mib += c.N * 8 < (Index{2} << 20);
    above_8mib += c.N * 8 >= (Index{8} << 20);
  }
  for (const char* name : {"indexing naive", "indexing krr", "indexing pitfalls", "indexing prylli", "schedule async",
                           "schedule caterpillar", "schedule walker-otto", "schedule stepwise", "schedule greedy",
                           "relabel none", "relabel exact", "relabel greedy"}) {
    EXPECT_GE(seen[name], 5) << name;
  }
  EXPECT_GE(small_blocks, 15);
  EXPECT_GE(large_blocks, 15);
  EXPECT_GE(disjoint, 3);
  EXPECT_GE(below_2mib, 3);
  EXPECT_GE(above_8mib, 3);
}

// The 2-D cases: reproducible, apart from the 1-D cases of the same seed, matrices of 1 to 16 MiB
// between two descriptors the library accepts, each side's grid its processes; the whole copies
// over the methods and schedules that take any blocks, row-major storage on some sides.
TEST(RandomValidationCases, TwoDimensionalCasesAreCopiesTheLibraryAccepts) {
  const auto a = random_matrix_validation_cases(60, 18), b = random_matrix_validation_cases(60, 18);
  ASSERT_EQ(a.size(), 60u);
  std::map<std::string, int> seen;
  int row_major = 0, first_elsewhere = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const ValidationCase& c = a[i];
    SCOPED_TRACE(c.label());
    EXPECT_EQ(c.label(), b[i].label());
    ASSERT_TRUE(c.matrix);
    EXPECT_EQ(c.family(), "2-D");
    EXPECT_EQ(matrix_copy_problem(*c.matrix), "");
    EXPECT_EQ(c.sources(), c.P);
    EXPECT_EQ(c.destinations(), c.Q);
    EXPECT_GE(c.ranks(), 2);
    EXPECT_LE(c.ranks(), kMaxValidationRanks);
    const Index bytes = c.matrix->from.rows * c.matrix->from.cols * 8;
    EXPECT_GE(bytes, (Index{1} << 20) - 2048 * 8);  // a whole number of columns of rows elements
    EXPECT_LT(bytes, Index{16} << 20);
    ++seen["relabel " + c.relabel];
    row_major += (c.matrix->from.order == StorageOrder::RowMajor) + (c.matrix->to.order == StorageOrder::RowMajor);
    first_elsewhere += c.matrix->from.first_row + c.matrix->from.first_col > 0;
    const ValidationCase twin = c.by_pdgemr2d();
    EXPECT_EQ(twin.family(), "pdgemr2d");
    EXPECT_NE(twin.label().find("pdgemr2d"), std::string::npos);
    if (c.submatrix()) continue;  // the next test's
    const Layout source = scalapack_layout(c.matrix->from), dest = scalapack_layout(c.matrix->to);
    EXPECT_TRUE(method_takes(indexing_method(c.indexing), source, dest));
    ++seen[c.indexing];
    ++seen[c.schedule];
  }
  for (const char* name : {"naive", "pitfalls", "prylli", "async", "caterpillar", "stepwise", "greedy",
                           "relabel none", "relabel exact", "relabel greedy"}) {
    EXPECT_GE(seen[name], 5) << name;
  }
  EXPECT_GE(row_major, 10);
  EXPECT_GE(first_elsewhere, 10);
}

// About a third of the 2-D cases copy sub(A) into sub(B), as ScaLAPACK's pdgemr2d takes them:
// reproducible for a seed, m x n inside both matrices at IA, JA and IB, JB drawn across them, B of
// its own size, column-major, run by the drop-in's plan (no indexing, schedule or relabelling).
TEST(RandomValidationCases, AThirdOfTheTwoDimensionalCasesAreSubmatrixCopiesInsideBothMatrices) {
  const auto a = random_matrix_validation_cases(60, 18), b = random_matrix_validation_cases(60, 18);
  int submatrices = 0, b_sized_otherwise = 0, a_offset = 0, b_offset = 0, disjoint = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const ValidationCase& c = a[i];
    SCOPED_TRACE(c.label());
    ASSERT_EQ(c.submatrix(), b[i].submatrix());
    if (!c.submatrix()) continue;
    ++submatrices;
    const MatrixCopy& m = *c.matrix;
    const MatrixCopy& again = *b[i].matrix;
    EXPECT_EQ(std::tie(m.rows, m.cols, m.from_row0, m.from_col0, m.to_row0, m.to_col0, m.to.rows, m.to.cols),
              std::tie(again.rows, again.cols, again.from_row0, again.from_col0, again.to_row0, again.to_col0,
                       again.to.rows, again.to.cols));
    EXPECT_FALSE(m.whole());
    EXPECT_GE(m.rows, 1);
    EXPECT_GE(m.cols, 1);
    EXPECT_GE(m.from_row0, 0);
    EXPECT_GE(m.from_col0, 0);
    EXPECT_LE(m.from_row0 + m.rows, m.from.rows);  // inside A
    EXPECT_LE(m.from_col0 + m.cols, m.from.cols);
    EXPECT_GE(m.to_row0, 0);
    EXPECT_GE(m.to_col0, 0);
    EXPECT_LE(m.to_row0 + m.rows, m.to.rows);  // inside B
    EXPECT_LE(m.to_col0 + m.cols, m.to.cols);
    EXPECT_EQ(matrix_copy_problem(m), "");
    EXPECT_EQ(m.from.order, StorageOrder::ColumnMajor);
    EXPECT_EQ(m.to.order, StorageOrder::ColumnMajor);
    EXPECT_EQ(c.indexing, "submatrix");
    EXPECT_EQ(c.schedule, "async");
    EXPECT_EQ(c.relabel, "none");
    EXPECT_NE(c.label().find(fmt::format("sub {}x{} at {},{}", m.rows, m.cols, m.from_row0 + 1, m.from_col0 + 1)),
              std::string::npos);
    b_sized_otherwise += m.to.rows != m.from.rows || m.to.cols != m.from.cols;
    a_offset += m.from_row0 > 0 && m.from_col0 > 0;
    b_offset += m.to_row0 > 0 && m.to_col0 > 0;
    disjoint += c.disjoint;
  }
  EXPECT_GE(submatrices, 12);
  EXPECT_LE(submatrices, 30);
  EXPECT_GE(b_sized_otherwise, submatrices - 1);
  EXPECT_GE(a_offset, submatrices / 2);
  EXPECT_GE(b_offset, submatrices / 3);
  EXPECT_GE(disjoint, 1);
}

// Cases drawn within a machine's cores keep to them: two cores, two ranks.
TEST(RandomValidationCases, CasesWithinTheCoresKeepToThem) {
  for (const auto& c : random_validation_cases(40, 19, 2)) EXPECT_EQ(c.ranks(), 2) << c.label();
  for (const auto& c : random_matrix_validation_cases(40, 19, 2)) EXPECT_EQ(c.ranks(), 2) << c.label();
  for (const auto& c : random_matrix_validation_cases(40, 19, 4)) EXPECT_LE(c.ranks(), 4) << c.label();
}

}  // namespace
}  // namespace redist::calibration
